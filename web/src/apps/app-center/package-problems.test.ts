import { expect } from 'chai';
import { appErrors } from '../../../../shared/src/errors/apps.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { enMessages as en } from '../../lib/i18n/dictionaries.ts';
import { appProblemMessage } from './package-problems.ts';

const problem = (code: ProblemDetails['code'], params: Record<string, unknown>): ProblemDetails => ({
  type: 'x',
  title: 'server title',
  status: 400,
  detail: 'server detail',
  code,
  params,
  requestId: 'r1',
});

// The reasons the daemon's package checks give (daemon/src/areas/apps/package-*.ts, svg-check.ts).
const entryReasons = [
  'absolute',
  'dotDot',
  'nameInvalid',
  'linkOutside',
  'hardLinkOutside',
  'device',
  'fifo',
  'setId',
  'duplicate',
  'caseDuplicate',
  'unknownType',
];
const invalidReasons = [
  'notGzip',
  'truncated',
  'notTar',
  'trailingData',
  'tooManyEntries',
  'tooLarge',
  'manifestMissing',
  'manifestTooLarge',
  'manifestUnreadable',
  'manifestInvalid',
  'iconMissing',
  'iconTooLarge',
  'frontendMissing',
  'backendMissing',
];
const iconReasons = ['notSvg', 'declaration', 'script', 'activeElement', 'eventHandler', 'outsideReference'];

describe('App Center: package problems in words', () => {
  it('names the refused entry and its reason, in both languages', () => {
    for (const reason of entryReasons) {
      const p = problem('app.package.entry_refused', { entry: 'frontend/../../etc/x', reason });
      for (const language of ['en', 'de'] as const) {
        const text = appProblemMessage(language, p);
        expect(text, `${language} ${reason}`)
          .to.contain('frontend/../../etc/x')
          .and.not.match(/\{\w+\}/);
        expect(text).to.not.equal('server detail');
      }
    }
    expect(appProblemMessage('en', problem('app.package.entry_refused', { entry: 'a/b', reason: 'setId' }))).to.equal(
      'The entry a/b has the set-user-id or set-group-id bit.',
    );
    expect(appProblemMessage('de', problem('app.package.entry_refused', { entry: 'dev', reason: 'device' }))).to.equal('Der Eintrag dev ist eine Gerätedatei.');
  });

  it('has its own sentence for every reason of an invalid package and of an icon', () => {
    for (const reason of invalidReasons) expect(en, reason).to.have.property(`appCenter.invalid.${reason}`);
    for (const reason of iconReasons) expect(en, reason).to.have.property(`appCenter.icon.${reason}`);
    expect(appProblemMessage('en', problem('app.package.icon_invalid', { reason: 'script' }))).to.equal(en['appCenter.icon.script']);
  });

  it('writes byte limits as sizes and entry limits as counts', () => {
    expect(appProblemMessage('en', problem('app.package.invalid', { reason: 'tooLarge', limit: 512 * 1024 * 1024 }))).to.equal(
      'The package unpacks to more than 512 MiB.',
    );
    expect(appProblemMessage('de', problem('app.package.invalid', { reason: 'tooManyEntries', limit: 20000 }))).to.equal(
      'Das Paket enthält mehr als 20.000 Einträge.',
    );
  });

  it('lists the manifest fields the schema refused', () => {
    const p = problem('app.package.invalid', { reason: 'manifestInvalid', errors: [{ path: 'version', message: '"version" must be a version' }] });
    expect(appProblemMessage('en', p)).to.equal('The manifest.json of the package is not valid: version: "version" must be a version.');
  });

  it('falls back to the code’s sentence, naming a reason it does not know yet', () => {
    expect(appProblemMessage('en', problem('app.package.entry_refused', { entry: 'x', reason: 'socket' }))).to.equal(
      'The entry x of the package is not allowed (socket).',
    );
  });

  it('translates every code of the apps area', () => {
    for (const code of Object.keys(appErrors)) expect(en, code).to.have.property(`error.${code}`);
    expect(appProblemMessage('de', problem('app.package.box_too_old', { needs: '2.0.0', box: '0.1.0' }))).to.equal(
      'Die App braucht Box-Version 2.0.0; diese Box hat 0.1.0.',
    );
  });
});

import { expect } from 'chai';
import { ApiError } from '../../../../shared/src/client.ts';
import { backupCountKinds, backupPartNames } from '../../../../shared/src/api/backup/backup.ts';
import { requestErrors } from '../../../../shared/src/errors/request.ts';
import { deMessages as de, enMessages as en } from './dictionaries.ts';
import { errorMessage, format, formatCount, pickLanguage, problemMessage } from './messages.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('web i18n', () => {
  it('has every English key in German and no German key English lacks', () => {
    expect(Object.keys(de).sort()).to.deep.equal(Object.keys(en).sort());
  });

  it('keeps the same placeholders and no empty text in every translation', () => {
    for (const [key, text] of Object.entries(en)) {
      const german = (de as Record<string, string>)[key] ?? '';
      expect(german.trim(), key).to.not.equal('');
      expect(placeholders(german), key).to.deep.equal(placeholders(text));
    }
  });

  it('translates every code the shell itself meets: the HTTP layer and sign-in', () => {
    const signIn = [
      'auth.credentials.invalid',
      'auth.login.throttled',
      'auth.session.required',
      'auth.csrf.invalid',
      'auth.origin.invalid',
      'auth.permission.denied',
      'auth.totp.pending_missing',
      'auth.totp.invalid',
      'auth.totp.reused',
      'setup.code.invalid',
      'setup.code.expired',
      'setup.done',
    ];
    for (const code of [...Object.keys(requestErrors), ...signIn]) expect(en, code).to.have.property(`error.${code}`);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(format('de', 'signIn.title', { product: 'Cellar' })).to.equal('Bei Cellar anmelden');
    expect(format('en', 'taskbar.signedInAs')).to.equal('Signed in as {name}');
  });

  it('turns a problem into the localised message of its code', () => {
    const problem = {
      type: '/api/docs#error-auth.login.throttled',
      title: 'Too many failed sign-ins; try again later',
      status: 429,
      detail: '',
      code: 'auth.login.throttled',
      params: { retryAfter: 30 },
      requestId: 'r1',
    } as const;
    expect(problemMessage('en', problem)).to.equal('Too many failed sign-ins. Try again in 30 seconds.');
    expect(problemMessage('de', problem)).to.equal('Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in 30 Sekunden erneut.');
  });

  it('falls back to the server detail, then title, for unknown codes or missing values', () => {
    const unknown = { type: 'x', title: 'A new rule', status: 409, detail: 'The share is in use by 2 users', code: 'shares.share.busy', requestId: 'r2' };
    // A code added by a later area before the web translates it: the server's English detail still reads well.
    expect(problemMessage('de', unknown as unknown as Parameters<typeof problemMessage>[1])).to.equal('The share is in use by 2 users');
    const noParams = { type: 'x', title: 'Too many requests', status: 429, detail: '', code: 'request.rate.limited', requestId: 'r3' } as const;
    expect(problemMessage('en', noParams)).to.equal('Too many requests');
  });

  it('describes thrown values: problems, unreachable box, anything else', () => {
    const err = new ApiError({
      type: 'x',
      title: 'The user name or password is wrong',
      status: 401,
      detail: '',
      code: 'auth.credentials.invalid',
      requestId: 'r4',
    });
    expect(errorMessage('de', err)).to.equal('Benutzername oder Passwort ist falsch.');
    expect(errorMessage('en', new TypeError('Failed to fetch'))).to.equal(en['error.network']);
    expect(errorMessage('en', new Error('boom'))).to.equal(en['error.unknown']);
  });

  it('says a full share with its name and sizes, and without the needed size when it is not known', () => {
    const problem = (needed: number | null) =>
      ({
        type: '',
        title: 'There is not enough space on the share',
        status: 507,
        detail: '',
        code: 'fs.space.insufficient',
        requestId: 'r',
        params: { share: 'Photos', needed, free: 20_866_662 },
      }) as const;
    expect(problemMessage('en', problem(40 * 1024 ** 2))).to.equal('Not enough space on Photos: 40 MiB needed, 19.9 MiB free.');
    expect(problemMessage('de', problem(40 * 1024 ** 2))).to.equal('Nicht genug Platz auf Photos: 40 MiB benötigt, 19,9 MiB frei.');
    expect(problemMessage('en', problem(null))).to.equal('Not enough space on Photos: 19.9 MiB free.');
  });

  it("picks the user's language, else the browser's first offered, else the system's", () => {
    expect(pickLanguage('de', ['en-US'], 'en')).to.equal('de');
    expect(pickLanguage(null, ['fr-FR', 'de-AT', 'en'], 'en')).to.equal('de');
    expect(pickLanguage(null, ['fr-FR', 'it'], 'de')).to.equal('de');
    expect(pickLanguage(null, [], 'en')).to.equal('en');
  });

  it('words counts by the plural rule of each language', () => {
    expect(formatCount('en', 'controlPanel.backup.count.groups', 1)).to.equal('1 group');
    expect(formatCount('en', 'controlPanel.backup.count.groups', 2)).to.equal('2 groups');
    expect(formatCount('de', 'controlPanel.backup.count.groups', 1)).to.equal('1 Gruppe');
    expect(formatCount('de', 'controlPanel.backup.count.administrators', 0)).to.equal('0 Administratoren');
    expect(formatCount('de', 'controlPanel.backup.count.grants', 1200)).to.equal('1.200 Berechtigungen');
  });

  it('names every count and part a backup can hold, in both languages', () => {
    for (const dictionary of [en, de] as Record<string, string>[]) {
      for (const kind of backupCountKinds) {
        for (const form of ['one', 'other']) expect(dictionary, kind).to.have.property(`controlPanel.backup.count.${kind}.${form}`);
      }
      for (const part of backupPartNames) expect(dictionary, part).to.have.property(`controlPanel.backup.part.${part}`);
    }
  });
});

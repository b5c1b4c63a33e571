import { expect } from 'chai';
import { errorCatalog, type ErrorSpec, type ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { deMessages, enMessages } from './dictionaries.ts';
import { problemMessage } from './messages.ts';

const withReasons = Object.entries(errorCatalog as Record<string, ErrorSpec>).filter(([, spec]) => spec.reasons !== undefined);

const problem = (code: string, reason: string): ProblemDetails => ({
  type: 'about:blank',
  title: 'English title',
  status: 400,
  code: code as ProblemDetails['code'],
  detail: 'English detail',
  params: { reason },
  requestId: 'req-00000000',
});

describe('reason codes in the reader language', () => {
  it('lists the reasons of the codes that carry one', () => {
    expect(withReasons.map(([code]) => code)).to.include.members(['fs.share.folder_invalid', 'fs.path.invalid', 'system.updates.not_applicable']);
  });

  it('has an en and a de sentence for every reason the daemon can send', () => {
    const missing: string[] = [];
    for (const [code, spec] of withReasons) {
      for (const reason of spec.reasons ?? []) {
        const key = `error.${code}.reason.${reason}`;
        if (!Object.hasOwn(enMessages, key)) missing.push(`en ${key}`);
        if (!Object.hasOwn(deMessages, key)) missing.push(`de ${key}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('shows each reason as its sentence, never the raw code inside a German sentence', () => {
    expect(problemMessage('de', problem('fs.share.folder_invalid', 'missing'))).to.equal('Dieser Host-Ordner kann keine Freigabe sein: Es gibt ihn nicht.');
    for (const [code, spec] of withReasons) {
      for (const reason of spec.reasons ?? []) {
        const text = problemMessage('de', problem(code, reason));
        expect(text, `${code} ${reason}`).to.not.match(new RegExp(`\\(${reason}\\)|English`));
      }
    }
  });
});

import { expect } from 'chai';
import { codeWords, logMessageText } from './log-message.ts';

describe('log message text', () => {
  const signedIn = { code: 'auth.signedIn', params: { username: 'anna', how: 'password' }, message: 'signed in' };

  it('renders a coded entry in the reader language with its params', () => {
    expect(logMessageText('de', signedIn)).to.equal('anna hat sich angemeldet (Passwort).');
    expect(logMessageText('en', signedIn)).to.equal('anna signed in (password).');
  });

  it('shows the stored message without a code, with an unknown code, or when a param is missing', () => {
    expect(logMessageText('de', { code: null, params: {}, message: 'from the journal' })).to.equal('from the journal');
    expect(logMessageText('de', { code: 'newer.daemon', params: {}, message: 'newer' })).to.equal('newer');
    expect(logMessageText('de', { code: 'auth.signedIn', params: { how: 'password' }, message: 'signed in' })).to.equal('signed in');
  });

  it('finds the codes whose text holds each search word, in the reader language and in English', () => {
    // "anna hat sich angemeldet": the name is a param (in the entry's fields), "angemeldet" the code's text.
    expect(codeWords('de', 'anna angemeldet')).to.include('1:auth.signedIn');
    expect(codeWords('de', 'anna angemeldet').filter((c) => c.startsWith('0:'))).to.deep.equal([]);
    // A prefix, as the box's search; the English text still finds it for a German reader.
    expect(codeWords('de', 'angemel')).to.include('0:auth.signedIn');
    expect(codeWords('de', 'signed')).to.include('0:auth.signedIn');
    expect(codeWords('en', 'angemeldet')).to.deep.equal([]);
    // Words of the params' places are not the text's.
    expect(codeWords('de', 'username')).to.deep.equal([]);
  });

  it("names a job's task by what it does, from the title its entries carry", () => {
    const started = { code: 'jobs.started', params: { jobId: 12 }, message: 'job started' };
    const task = { code: 'files.copy', params: { count: 3, target: 'Family' } };
    expect(logMessageText('en', { ...started, fields: { jobId: 12, kind: 'files.operation', task } })).to.equal('Task 12 “Copying 3 items to Family” started.');
    expect(logMessageText('de', { ...started, fields: { jobId: 12, task } })).to.match(/^Aufgabe 12 „.*Family.*“ gestartet\.$/);
    // Older entries without a title keep the id alone; a malformed one is ignored.
    expect(logMessageText('en', { ...started, fields: { jobId: 12 } })).to.equal('Task 12 started.');
    expect(logMessageText('en', { ...started, fields: { task: 'files.copy' } })).to.equal('Task 12 started.');
  });
});

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
});

import { expect } from 'chai';
import { logMessageText } from './log-message.ts';

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
});

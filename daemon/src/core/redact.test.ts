import { expect } from 'chai';
import { redactSecrets, redacted } from './redact.ts';

describe('redactSecrets', () => {
  it('replaces secret fields at any depth and keeps the rest', () => {
    const out = redactSecrets({
      username: 'anna',
      password: 'hunter22',
      nested: { totpSecret: 'ABC', list: [{ newPassword: 'x', csrfToken: 't' }], code: 'auth.permission.denied' },
      Authorization: 'Basic abc',
    });
    expect(out).to.deep.equal({
      username: 'anna',
      password: redacted,
      nested: { totpSecret: redacted, list: [{ newPassword: redacted, csrfToken: redacted }], code: 'auth.permission.denied' },
      Authorization: redacted,
    });
  });

  it('leaves scalars alone and reduces errors to name and message', () => {
    expect(redactSecrets(5)).to.equal(5);
    expect(redactSecrets(new TypeError('bad'))).to.deep.equal({ name: 'TypeError', message: 'bad' });
  });
});

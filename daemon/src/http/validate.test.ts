import { expect } from 'chai';
import { controlCharacterErrors } from './validate.ts';

describe('request validation: control characters', () => {
  it('finds them in strings and keys at any depth, and lets tab, line feed and carriage return pass', () => {
    expect(
      controlCharacterErrors({ name: 'a\tb\nc\r', list: ['ok', 'x\u0000'], nested: { 'k\u001b': 'v', deep: { text: 'DEL\u007f' } } }),
    ).to.have.deep.members([
      { path: 'list.1', message: 'must not contain control characters' },
      { path: 'nested.k\u001b', message: 'must not contain control characters' },
      { path: 'nested.deep.text', message: 'must not contain control characters' },
    ]);
    expect(controlCharacterErrors('\u0085')).to.have.length(1);
    expect(controlCharacterErrors({ plain: 'Grüße, 東京 ‮' })).to.deep.equal([]);
  });

  it('walks a body nested 20,000 levels deep without running out of stack', () => {
    let body: unknown = 'bottom\u0000';
    for (let i = 0; i < 20_000; i++) body = { a: body };
    const errors = controlCharacterErrors(body);
    expect(errors).to.have.length(1);
    expect(errors[0]?.path.split('.')).to.have.length(20_000);
  });
});

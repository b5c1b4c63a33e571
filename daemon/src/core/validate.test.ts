import { expect } from 'chai';
import { controlCharacterErrors, maxNesting, nestingErrors } from './validate.ts';

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

describe('request validation: nesting', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
    return value;
  };

  it(`lets ${maxNesting} levels pass and names the first object or array past them`, () => {
    expect(nestingErrors(nested(maxNesting + 1))).to.deep.equal([]);
    const errors = nestingErrors(nested(maxNesting + 2));
    expect(errors).to.have.length(1);
    expect(errors[0]?.message).to.equal(`must not nest deeper than ${maxNesting} levels`);
    expect(errors[0]?.path.split('.')).to.have.length(maxNesting + 1);
  });

  it('walks 20,000 levels without running out of stack', () => {
    expect(nestingErrors(nested(20_000))).to.have.length(1);
  });
});

import { expect } from 'chai';
import { poolNameProblem } from './pool-rules.ts';

describe('storage manager pool names', () => {
  it('accepts what ZFS accepts and says why it refuses the rest', () => {
    expect(poolNameProblem('tank')).to.equal(null);
    expect(poolNameProblem('tank_2.a:b-c')).to.equal(null);
    expect(poolNameProblem('2tank')).to.equal('storage.create.name.start');
    expect(poolNameProblem('my tank')).to.equal('storage.create.name.chars');
    expect(poolNameProblem('a'.repeat(64))).to.equal('storage.create.name.chars');
    expect(poolNameProblem('mirror')).to.equal('storage.create.name.reserved');
  });
});

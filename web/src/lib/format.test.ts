import { expect } from 'chai';
import { commandLine } from './format.ts';

describe('storage manager formatting', () => {
  it('quotes only the arguments a shell would split or expand', () => {
    expect(commandLine(['zpool', 'create', '-m', '/mnt/tank', 'tank', 'mirror', '/dev/loop0', '/dev/loop1'])).to.equal(
      'zpool create -m /mnt/tank tank mirror /dev/loop0 /dev/loop1',
    );
    expect(commandLine(['zfs', 'create', "it's here", 'a b'])).to.equal(`zfs create 'it'\\''s here' 'a b'`);
  });
});

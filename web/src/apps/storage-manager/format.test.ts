import { expect } from 'chai';
import { commandLine, formatBytes } from './format.ts';

describe('storage manager formatting', () => {
  it('writes bytes in binary steps in the language of the UI', () => {
    expect(formatBytes(0, 'en')).to.equal('0 B');
    expect(formatBytes(1536 * 1024 * 1024, 'en')).to.equal('1.5 GB');
    expect(formatBytes(1536 * 1024 * 1024, 'de')).to.equal('1,5 GB');
    expect(formatBytes(null, 'en')).to.equal('–');
  });

  it('quotes only the arguments a shell would split or expand', () => {
    expect(commandLine(['zpool', 'create', '-m', '/mnt/tank', 'tank', 'mirror', '/dev/loop0', '/dev/loop1'])).to.equal(
      'zpool create -m /mnt/tank tank mirror /dev/loop0 /dev/loop1',
    );
    expect(commandLine(['zfs', 'create', "it's here", 'a b'])).to.equal(`zfs create 'it'\\''s here' 'a b'`);
  });
});

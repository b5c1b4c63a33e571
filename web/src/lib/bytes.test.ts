import { expect } from 'chai';
import { formatBytes } from './bytes.ts';

describe('formatBytes', () => {
  it('counts in binary steps and names them so', () => {
    expect(formatBytes(0, 'en')).to.equal('0 B');
    expect(formatBytes(512, 'en')).to.equal('512 B');
    expect(formatBytes(1536, 'en')).to.equal('1.5 KiB');
    expect(formatBytes(256 * 1024 ** 2, 'en')).to.equal('256 MiB');
    expect(formatBytes(2 * 1024 ** 5, 'en')).to.equal('2 PiB');
  });

  it('keeps one decimal only below 100 of a unit', () => {
    expect(formatBytes(99.94 * 1024 ** 2, 'en')).to.equal('99.9 MiB');
    expect(formatBytes(123.4 * 1024 ** 3, 'en')).to.equal('123 GiB');
  });

  it('writes numbers in the language of the UI', () => {
    expect(formatBytes(1536 * 1024 ** 2, 'de')).to.equal('1,5 GiB');
    expect(formatBytes(1500 * 1024 ** 4, 'de')).to.equal('1,5 PiB');
  });

  it('shows an unknown size as a dash', () => {
    expect(formatBytes(null, 'en')).to.equal('–');
  });
});

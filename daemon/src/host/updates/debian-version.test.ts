import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { compareDebianVersions } from './debian-version.ts';

const pairs: [string, string][] = [
  ['1.0', '1.1'],
  ['1.0~rc1', '1.0'],
  ['1.0', '1.0-1'],
  ['1.0-1', '1.0-2'],
  ['1.9', '1.10'],
  ['1:0.1', '2.0'],
  ['1.0a', '1.0b'],
  ['1.0+b1', '1.0.1'],
  ['0.2.0', '0.10.0'],
  ['1.0~~', '1.0~'],
  ['1.0', '1.0'],
  ['2.0.0-1', '2.0.0-1'],
];

describe('Debian version order', () => {
  it('agrees with dpkg --compare-versions on each pair, both ways', () => {
    for (const [a, b] of pairs) {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        const dpkgLess = (() => {
          try {
            execFileSync('dpkg', ['--compare-versions', x, 'lt', y]);
            return true;
          } catch {
            return false;
          }
        })();
        expect(compareDebianVersions(x, y) < 0, `${x} < ${y}`).to.equal(dpkgLess);
      }
    }
    expect(compareDebianVersions('1.0', '1.0')).to.equal(0);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildSystemImage } from '../../build/scripts/build-system-image.js';

/**
 * The system image script with a package file, as `npm run package` makes one (issue 36 point 3):
 * a small local .deb stands in for Cellar's, so the test takes seconds. Needs root, mmdebstrap and
 * Debian's mirror.
 */
describe('the system image script', function () {
  this.timeout(10 * 60 * 1000);
  let work: string;
  let deb: string;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-system-image-'));
    const pkg = path.join(work, 'pkg');
    mkdirSync(path.join(pkg, 'DEBIAN'), { recursive: true });
    mkdirSync(path.join(pkg, 'usr/share/cellar-image-test'), { recursive: true });
    // A dependency from the mirror, as the Cellar package has many.
    writeFileSync(
      path.join(pkg, 'DEBIAN/control'),
      'Package: cellar-image-test\nVersion: 1.0\nArchitecture: all\nMaintainer: Tests <tests@cellar.invalid>\nDepends: iproute2\nDescription: test package\n test package\n',
    );
    writeFileSync(path.join(pkg, 'usr/share/cellar-image-test/marker'), 'from the local package\n');
    deb = path.join(work, 'cellar-image-test_1.0_all.deb');
    execFileSync('dpkg-deb', ['--root-owner-group', '--build', pkg, deb], { stdio: 'ignore' });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('installs a local package file with its dependencies from the mirror', () => {
    const out = buildSystemImage({ out: path.join(work, 'image.tar'), variant: 'essential', packages: [], deb });
    const files = execFileSync('tar', ['-tf', out], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');
    expect(files).to.include('./usr/share/cellar-image-test/marker');
    expect(files).to.include('./usr/bin/ip');
  });

  it("fails with mmdebstrap's own reason", () => {
    expect(() => buildSystemImage({ out: path.join(work, 'bad.tar'), variant: 'essential', packages: ['cellar-no-such-package'] }))
      .to.throw(Error, /mmdebstrap failed/)
      .with.property('message')
      .that.matches(/Unable to locate package cellar-no-such-package/);
  });
});

import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../core/logger.ts';
import { CommandRunner } from '../command-runner.ts';
import { SftpChroots } from './sftp-chroots.ts';

describe('SFTP chroots (root: bind mounts)', () => {
  it('makes the chroot folders 0755 whatever the umask, so the user can list the chroot under the unit’s UMask=0027', async () => {
    expect(process.getuid?.(), 'bind mounts need root').to.equal(0);
    // Not under /tmp: sshd wants root-owned folders at every component, and the test's own is /run.
    const work = mkdtempSync('/run/cellar-chroots-test-');
    const base = path.join(work, 'chroots');
    const source = path.join(work, 'share');
    mkdirSync(source);
    const chroots = new SftpChroots(
      new CommandRunner(createLogger({ level: 'error', console: false, sinks: [] }), true),
      createLogger({ level: 'error', console: false, sinks: [] }),
      base,
    );
    const before = process.umask(0o027);
    try {
      await chroots.reconcile([{ username: 'someone', target: path.join(base, 'someone', 'Docs'), source }]);
      process.umask(before);
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      expect([mode(base), mode(path.join(base, 'someone'))]).to.deep.equal(['755', '755']);
    } finally {
      process.umask(before);
      await chroots.clear();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

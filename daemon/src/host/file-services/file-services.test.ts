import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../core/logger.ts';
import { CommandRunner } from '../command-runner.ts';
import type { FileServicesState } from './file-share.ts';
import { FileServices, type FileServicesDeployment } from './file-services.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });
const empty: FileServicesState = { shares: [], smbUsers: [], sftpUsers: [] };

// Runs real testparm (Debian's samba package); the sshd check and the reloads are stand-ins.
describe('FileServices apply', () => {
  let dir: string;
  let reads: number;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-fs-unit-'));
    reads = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function services(overrides: { globals?: [string, string][]; sshdCheck?: string[]; state?: FileServicesState } = {}): FileServices {
    const deployment: FileServicesDeployment = {
      smb: { confPath: path.join(dir, 'smb.conf'), globals: overrides.globals ?? [['server role', 'standalone server']], reload: ['true'] },
      sftp: {
        sftpGroup: 'cellar-sftp',
        accountsGroup: 'users',
        chrootBase: path.join(dir, 'chroots'),
        confPath: path.join(dir, 'sftp.conf'),
        check: overrides.sshdCheck ?? ['true'],
        reload: ['true'],
      },
      shareGroupPrefix: `cfut${process.pid}-share-`,
    };
    return new FileServices({
      runner: new CommandRunner(logger, true),
      logger,
      deployment,
      reserved: { trashFolder: '.cellar-trash', uploadTempPrefix: '.cellar-upload-' },
      state: async () => {
        reads++;
        return overrides.state ?? empty;
      },
      debounceMs: 20,
    });
  }

  it('coalesces a burst of changes into one pass', async () => {
    const fs = services();
    await Promise.all([fs.apply(), fs.apply(), fs.apply()]);
    expect(reads).to.equal(1);
    expect(readFileSync(path.join(dir, 'smb.conf'), 'utf8')).to.include('[global]');
    expect(readFileSync(path.join(dir, 'sftp.conf'), 'utf8')).to.include('Match Group cellar-sftp');
  });

  it('keeps the previous smb.conf when testparm refuses the new one, leaving no temporary file', async () => {
    writeFileSync(path.join(dir, 'smb.conf'), 'previous\n');
    const fs = services({ globals: [['read only', 'maybe']] });
    let failed: unknown = null;
    await fs.apply().catch((err: unknown) => (failed = err));
    expect(String(failed)).to.match(/testparm/);
    expect(readFileSync(path.join(dir, 'smb.conf'), 'utf8')).to.equal('previous\n');
    expect(readdirSync(dir).filter((name) => name.includes('cellar-new'))).to.deep.equal([]);
  });

  it('restores the previous sshd fragment when the sshd check fails', async () => {
    writeFileSync(path.join(dir, 'sftp.conf'), '# previous\n');
    const fs = services({ sshdCheck: ['false'] });
    await fs.apply().then(
      () => expect.fail('the pass should fail'),
      (err: unknown) => expect(String(err)).to.match(/false exited with 1/),
    );
    expect(readFileSync(path.join(dir, 'sftp.conf'), 'utf8')).to.equal('# previous\n');
  });

  it('applies Samba and sshd even when one share folder is gone', async () => {
    const missing = path.join(dir, 'missing');
    const fs = services({
      state: {
        shares: [{ id: 1, name: 'Gone', hostPath: missing, smb: true, smbEncrypt: false, sftp: false, users: [{ username: 'root', access: 'read' }] }],
        smbUsers: ['root'],
        sftpUsers: [],
      },
    });
    await fs.apply();
    expect(readFileSync(path.join(dir, 'smb.conf'), 'utf8')).to.include('[Gone]');
  });

  it('writes nothing in development mode', async () => {
    const fs = new FileServices({
      runner: new CommandRunner(logger, false),
      logger,
      deployment: {
        smb: { confPath: path.join(dir, 'smb.conf'), globals: [], reload: ['true'] },
        sftp: {
          sftpGroup: 'g',
          accountsGroup: 'users',
          chrootBase: path.join(dir, 'chroots'),
          confPath: path.join(dir, 'sftp.conf'),
          check: ['true'],
          reload: ['true'],
        },
        shareGroupPrefix: 'cfut-share-',
      },
      reserved: { trashFolder: '.cellar-trash', uploadTempPrefix: '.cellar-upload-' },
      state: async () => ({
        ...empty,
        shares: [{ id: 1, name: 'Docs', hostPath: dir, smb: true, smbEncrypt: false, sftp: true, users: [{ username: 'alice', access: 'read' }] }],
        smbUsers: ['alice'],
        sftpUsers: ['alice'],
      }),
      debounceMs: 0,
    });
    await fs.apply();
    expect(readdirSync(dir)).to.deep.equal([]);
  });
});

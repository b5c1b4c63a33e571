import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { SystemAccounts } from '../../daemon/src/host/accounts.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import type { FileServicesState } from '../../daemon/src/host/file-services/file-share.ts';
import { FileServices, type FileServicesDeployment } from '../../daemon/src/host/file-services/file-services.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command and answers its exit code and output (never throws on a failing exit). */
export function sh(argv: readonly string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(argv[0]!, argv.slice(1), { timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    // A command that exits before reading its input must not fail the test with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

export const smbPort = 4450;
export const sshPort = 2222;
export const password = 'Test-password-42';

/** Test accounts: a prefix no real user has, uids at the top of Cellar's range. */
export const accounts = { reader: 'cfst-reader', writer: 'cfst-writer', stranger: 'cfst-stranger', gone: 'cfst-gone', writer2: 'cfst-writer2' } as const;
const uids = { reader: 29991, writer: 29992, stranger: 29993, gone: 29994, writer2: 29995 } as const;
export const sftpGroup = 'cfst-sftp';

async function waitForPort(port: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on port ${port}`);
}

/**
 * A real smbd on 127.0.0.1:4450 and a second sshd on 127.0.0.1:2222, both configured by
 * FileServices from a state the test changes, with real system accounts and share folders
 * under /srv (a chroot may not lie under /tmp).
 */
export class FileServicesBox {
  readonly root = `/srv/cellar-fs-test-${process.pid}`;
  readonly shares = { docs: path.join(this.root, 'shares', 'docs'), vault: path.join(this.root, 'shares', 'vault') };
  readonly smbConf = path.join(this.root, 'samba', 'smb.conf');
  /** Groups of shares kept by group modes (file systems without ACLs): a prefix no real group has. */
  readonly shareGroupPrefix = `cfst${process.pid}-share-`;
  state: FileServicesState = { shares: [], smbUsers: [], sftpUsers: [] };
  services!: FileServices;
  private readonly daemons: ChildProcess[] = [];
  readonly accounts: SystemAccounts;
  private readonly runner: CommandRunner;

  constructor() {
    this.runner = new CommandRunner(createLogger({ level: 'warn', console: false, sinks: [] }), true);
    this.accounts = new SystemAccounts(this.runner, { smbConf: this.smbConf });
  }

  deployment(): FileServicesDeployment {
    const samba = path.join(this.root, 'samba');
    const ssh = path.join(this.root, 'ssh');
    return {
      smb: {
        confPath: this.smbConf,
        globals: [
          ['server role', 'standalone server'],
          ['interfaces', '127.0.0.1'],
          ['bind interfaces only', 'yes'],
          ['smb ports', String(smbPort)],
          ['disable netbios', 'yes'],
          ['map to guest', 'never'],
          ['passdb backend', `tdbsam:${samba}/passdb.tdb`],
          ['private dir', `${samba}/private`],
          ['lock directory', `${samba}/lock`],
          ['state directory', `${samba}/state`],
          ['cache directory', `${samba}/cache`],
          ['pid directory', `${samba}/pid`],
          ['ncalrpc dir', `${samba}/ncalrpc`],
          ['log file', `${samba}/log.%m`],
          ['load printers', 'no'],
          ['printing', 'bsd'],
          ['printcap name', '/dev/null'],
          ['disable spoolss', 'yes'],
        ],
        reload: ['smbcontrol', '-s', this.smbConf, 'smbd', 'reload-config'],
      },
      sftp: {
        sftpGroup,
        accountsGroup: 'users',
        chrootBase: path.join(this.root, 'chroots'),
        confPath: path.join(ssh, 'cellar-sftp.conf'),
        check: ['/usr/sbin/sshd', '-t', '-f', path.join(ssh, 'sshd_config')],
        reload: ['pkill', '--signal', 'HUP', '--pidfile', path.join(ssh, 'sshd.pid')],
      },
      shareGroupPrefix: this.shareGroupPrefix,
    };
  }

  async setUp(): Promise<void> {
    await this.tearDown();
    const samba = path.join(this.root, 'samba');
    const ssh = path.join(this.root, 'ssh');
    for (const dir of ['private', 'lock', 'state', 'cache', 'pid', 'ncalrpc']) await mkdir(path.join(samba, dir), { recursive: true, mode: 0o755 });
    await mkdir(ssh, { recursive: true, mode: 0o755 });
    for (const dir of Object.values(this.shares)) await mkdir(dir, { recursive: true, mode: 0o755 });
    await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
    await sh(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', path.join(ssh, 'host_key')]);
    await writeFile(
      path.join(ssh, 'sshd_config'),
      [
        `Port ${sshPort}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${ssh}/host_key`,
        `PidFile ${ssh}/sshd.pid`,
        'UsePAM yes',
        'KbdInteractiveAuthentication no',
        'Subsystem sftp internal-sftp',
        `Include ${ssh}/cellar-sftp.conf`,
        '',
      ].join('\n'),
    );
    await sh(['groupadd', sftpGroup]);
    this.services = new FileServices({
      runner: this.runner,
      logger: createLogger({ level: 'warn', console: false, sinks: [] }),
      deployment: this.deployment(),
      reserved: { trashFolder: '.cellar-trash', uploadTempPrefix: '.cellar-upload-' },
      state: async () => structuredClone(this.state),
      debounceMs: 20,
    });
    // The first pass writes smb.conf, whose passdb the SMB passwords below go to.
    await this.services.apply();
    for (const [role, username] of Object.entries(accounts)) {
      await this.accounts.createUser({ username, uid: uids[role as keyof typeof uids], displayName: role, password, active: true });
    }
    await this.accounts.setGroupMembers(sftpGroup, Object.values(accounts));
    // Own process groups: smbd's parent signals its whole group when it stops, which would include mocha.
    this.daemons.push(spawn('smbd', ['--foreground', '--no-process-group', '-s', this.smbConf], { stdio: 'ignore', detached: true }));
    this.daemons.push(
      spawn('/usr/sbin/sshd', ['-D', '-f', path.join(ssh, 'sshd_config'), '-E', path.join(ssh, 'sshd.log')], { stdio: 'ignore', detached: true }),
    );
    await waitForPort(smbPort);
    await waitForPort(sshPort);
  }

  /** Stops what setUp started and removes the accounts and folders, whatever state they are in. */
  async tearDown(): Promise<void> {
    await this.services?.close().catch(() => undefined);
    for (const child of this.daemons.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    // Bind mounts first: removing the folders must never reach into a share through a chroot.
    const mounts = (await sh(['findmnt', '-rn', '-o', 'TARGET'])).stdout.split('\n').filter((m) => m.startsWith(`${this.root}/`));
    for (const target of mounts.sort((a, b) => b.length - a.length)) await sh(['umount', '--lazy', target]);
    for (const username of Object.values(accounts)) await sh(['userdel', username]);
    await sh(['groupdel', sftpGroup]);
    const groups = (await sh(['getent', 'group'])).stdout.split('\n').map((line) => line.split(':')[0] ?? '');
    for (const group of groups.filter((g) => g.startsWith(this.shareGroupPrefix))) await sh(['groupdel', group]);
    await rm(this.root, { recursive: true, force: true });
  }
}

/** smbclient against the test smbd as a user. */
export function smb(share: string, user: string, command: string, protection: 'sign' | 'encrypt' = 'sign'): Promise<Run> {
  return sh(['smbclient', `//127.0.0.1/${share}`, '-p', String(smbPort), '-U', `${user}%${password}`, `--client-protection=${protection}`, '-c', command]);
}

/** An sftp batch against the test sshd as a user; the batch file is written under `folder`. */
export async function sftp(folder: string, user: string, commands: string[]): Promise<Run> {
  const batch = path.join(folder, `batch-${user}`);
  await writeFile(batch, `${commands.join('\n')}\n`);
  // sftp -b sets BatchMode, which turns passwords off: BatchMode=no lets sshpass answer.
  return sh([
    'sshpass',
    '-p',
    password,
    'sftp',
    '-o',
    'BatchMode=no',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'PubkeyAuthentication=no',
    '-P',
    String(sshPort),
    '-b',
    batch,
    `${user}@127.0.0.1`,
  ]);
}

/** Runs a command on the disk as a system user. */
export const asUser = (user: string, argv: string[]): Promise<Run> => sh(['runuser', '-u', user, '--', ...argv]);

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { ReplicateOutcome, ReplicateRequest } from '../../daemon/src/host/zfs-replication/replicate.ts';
import type { SendProgress } from '../../daemon/src/host/zfs-replication/run-send.ts';
import type { ReplicationTarget } from '../../daemon/src/host/zfs-replication/ssh-target.ts';
import { ensureZfsFuse, LoopDisks } from '../system/zfs-fixture.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const command = path.join(repo, 'daemon/src/areas/replication/receive-command.ts');
const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
const quiet = (argv: string[]) => {
  try {
    sh(argv);
  } catch {
    // cleanup goes on with the next step
  }
};

/** Addresses inside the test's own namespaces only (a private /30 nothing else here uses). */
export const sourceAddress = '10.213.7.1';
export const targetAddress = '10.213.7.2';
const sshPort = 2222;

export interface BoxesOptions {
  /** Sizes of the sparse files behind the pools (truncate's form). */
  sourcePoolSize: string;
  targetPoolSize: string;
}

/**
 * Two boxes on one machine: a source and a target network namespace joined by a veth pair, one
 * zfs-fuse with a source pool and a target pool on loop devices, and the target's sshd in its
 * namespace where the pairing's key runs only the forced command for `<target pool>/replica`
 * (`restrict,command=`, as replication-forced-ssh.test.ts); a second key without it runs `zfs
 * receive` by hand for the bench. `close()` removes all of it and is safe to call after a failed `open()`.
 */
export class ReplicationBoxes {
  readonly id = `${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
  readonly sourceNs = `cellar-rsrc-${this.id}`;
  readonly targetNs = `cellar-rdst-${this.id}`;
  readonly sourceLink = `rs${this.id}`.slice(0, 15);
  readonly user = 'root';
  readonly sourcePool = `crsrc${this.id}`;
  readonly targetPool = `crdst${this.id}`;
  readonly disks = new LoopDisks('cellar-repl');
  readonly work = mkdtempSync('/run/cellar-replication-boxes-');
  sshd: ChildProcess | null = null;
  sshdLog = '';
  private madeNamespaces = false;

  constructor(private readonly options: BoxesOptions) {}

  get parent(): string {
    return `${this.targetPool}/replica`;
  }

  mountOf(dataset: string): string {
    return sh(['zfs', 'get', '-H', '-o', 'value', 'mountpoint', dataset]).trim();
  }

  target(knownHosts = path.join(this.work, 'known_hosts')): ReplicationTarget {
    return { host: targetAddress, port: sshPort, user: this.user, keyPath: path.join(this.work, 'pairing'), knownHostsPath: knownHosts };
  }

  async open(): Promise<void> {
    if (process.getuid?.() !== 0) throw new Error('replication tests need root: namespaces, pools, an account and sshd');
    chmodSync(this.work, 0o755);
    await ensureZfsFuse();
    this.disks.add(1, this.options.sourcePoolSize);
    this.disks.add(1, this.options.targetPoolSize);
    for (const [pool, i] of [
      [this.sourcePool, 0],
      [this.targetPool, 1],
    ] as const) {
      this.disks.pools.add(pool);
      sh(['zpool', 'create', '-m', path.join(this.disks.work, pool), pool, this.disks.loops[i]!]);
    }
    sh(['zfs', 'create', this.parent]);
    this.openNetwork();
    this.addKeys();
    await this.startSshd();
  }

  private openNetwork(): void {
    sh(['ip', 'netns', 'add', this.sourceNs]);
    this.madeNamespaces = true;
    sh(['ip', 'netns', 'add', this.targetNs]);
    const peer = `rt${this.id}`.slice(0, 15);
    sh(['ip', 'link', 'add', this.sourceLink, 'netns', this.sourceNs, 'type', 'veth', 'peer', 'name', peer, 'netns', this.targetNs]);
    for (const [ns, dev, address] of [
      [this.sourceNs, this.sourceLink, sourceAddress],
      [this.targetNs, peer, targetAddress],
    ] as const) {
      sh(['ip', '-n', ns, 'link', 'set', 'lo', 'up']);
      sh(['ip', '-n', ns, 'addr', 'add', `${address}/30`, 'dev', dev]);
      sh(['ip', '-n', ns, 'link', 'set', dev, 'up']);
    }
  }

  /**
   * The keys' lines in an authorized_keys file of this sshd's own, for root: zfs-fuse serves only
   * root (its socket is 0755 root), so a replication account needs root's zfs on this machine.
   * The file lives in the test folder, so root's own ~/.ssh is never touched.
   */
  private addKeys(): void {
    for (const key of ['host', 'pairing', 'by-hand']) sh(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', path.join(this.work, key)]);
    this.pinHostKey(path.join(this.work, 'known_hosts'));
    // Bundled once, as the package ships it, so each request starts plain node (tsx's start took a
    // second, twice per run, and made the bench measure it).
    const bundle = path.join(this.work, 'receive-command.mjs');
    buildSync({ entryPoints: [command], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'error' });
    const forced = `${process.execPath} ${bundle} pairing-1 ${this.parent}`;
    const lines = [
      `restrict,command="${forced}" ${readFileSync(path.join(this.work, 'pairing.pub'), 'utf8').trim()}`,
      `restrict ${readFileSync(path.join(this.work, 'by-hand.pub'), 'utf8').trim()}`,
    ];
    writeFileSync(path.join(this.work, 'authorized_keys'), `${lines.join('\n')}\n`, { mode: 0o600 });
  }

  /** Writes a known_hosts holding the target's current host key, as the pairing pins it. */
  pinHostKey(file: string): void {
    writeFileSync(file, `[${targetAddress}]:${sshPort} ${readFileSync(path.join(this.work, 'host.pub'), 'utf8')}`);
  }

  async startSshd(): Promise<void> {
    const config = path.join(this.work, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${sshPort}`,
        `ListenAddress ${targetAddress}`,
        `HostKey ${path.join(this.work, 'host')}`,
        `PidFile ${this.work}/sshd.pid`,
        'UsePAM no',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        `AuthorizedKeysFile ${path.join(this.work, 'authorized_keys')}`,
        'PermitRootLogin prohibit-password',
        'AllowUsers root',
        // A source whose link went away is noticed within 15 s, so its zfs receive ends too.
        'ClientAliveInterval 5',
        'ClientAliveCountMax 3',
        '',
      ].join('\n'),
    );
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    this.sshdLog = '';
    const sshd = spawn('ip', ['netns', 'exec', this.targetNs, '/usr/sbin/sshd', '-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.sshd = sshd;
    sshd.stderr?.on('data', (d: Buffer) => (this.sshdLog += d.toString()));
    for (let i = 0; !/Server listening/.test(this.sshdLog); i++) {
      if (sshd.exitCode !== null || i > 400) throw new Error(`sshd did not start: ${this.sshdLog}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async stopSshd(): Promise<void> {
    const sshd = this.sshd;
    if (!sshd || sshd.exitCode !== null || sshd.signalCode !== null) return;
    const exited = new Promise((r) => sshd.once('exit', r));
    sshd.kill('SIGTERM');
    await exited;
  }

  /** Gives the target a new host key and restarts its sshd with it, as a reinstalled box would. */
  async replaceHostKey(): Promise<void> {
    await this.stopSshd();
    rmSync(path.join(this.work, 'host'));
    rmSync(path.join(this.work, 'host.pub'));
    sh(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', path.join(this.work, 'host')]);
    await this.startSshd();
  }

  setLink(up: boolean): void {
    sh(['ip', '-n', this.sourceNs, 'link', 'set', this.sourceLink, up ? 'up' : 'down']);
  }

  /** One run of the engine inside the source namespace (replication-send-child.ts). */
  replicate(request: Omit<ReplicateRequest, 'signal' | 'onProgress' | 'target'> & { target?: ReplicationTarget }, onProgress?: (p: SendProgress) => void) {
    const input = { target: this.target(), ...request };
    const child = spawn(
      'ip',
      ['netns', 'exec', this.sourceNs, process.execPath, '--import', 'tsx', path.join(repo, 'test/helpers/replication-send-child.ts'), JSON.stringify(input)],
      {
        cwd: repo,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const done = new Promise<{ outcome: ReplicateOutcome; ms: number }>((resolve, reject) => {
      let out = '';
      let result: { outcome: ReplicateOutcome; ms: number } | null = null;
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const lines = out.split('\n');
        out = lines.pop() ?? '';
        for (const line of lines) {
          const parsed = JSON.parse(line) as { progress?: SendProgress; outcome?: ReplicateOutcome; ms?: number };
          if (parsed.progress) onProgress?.(parsed.progress);
          if (parsed.outcome) result = { outcome: parsed.outcome, ms: parsed.ms ?? 0 };
        }
      });
      child.on('close', (code) => (result ? resolve(result) : reject(new Error(`the replication child exited ${code}: ${err}`))));
    });
    return { done, cancel: () => child.stdin.end() };
  }

  /** Runs a command (argv) in the source namespace: `ssh` by hand for the bench. */
  inSource(argv: string[]): string[] {
    return ['ip', 'netns', 'exec', this.sourceNs, ...argv];
  }

  async close(): Promise<void> {
    await this.stopSshd().catch(() => undefined);
    if (this.madeNamespaces) {
      quiet(['ip', 'netns', 'del', this.sourceNs]);
      quiet(['ip', 'netns', 'del', this.targetNs]);
    }
    await this.disks.cleanup();
    rmSync(this.work, { recursive: true, force: true });
  }
}

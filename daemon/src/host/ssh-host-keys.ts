import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../core/logger.ts';
import type { CommandRunner } from './command-runner.ts';

export interface SshHostKey {
  /** File name below the key folder, `ssh_host_<type>_key`. */
  name: string;
  privateKey: string;
  publicKey: string;
}

const keyName = /^ssh_host_[a-z0-9]+_key$/;

/**
 * The SSH host keys, so clients of a restored or replaced box see the host they trust. On a box
 * the folder is /etc/ssh; in development mode there is none and nothing is read or written.
 */
export class SshHostKeys {
  constructor(private readonly deps: { dir: string | null; logger: Logger; runner: CommandRunner }) {}

  /**
   * Whether a key reads as sshd will read it: ssh-keygen derives the public key from a copy of
   * the private one (in a folder of our own, mode 0600, removed after), and it must be the key's
   * public one. A key that fails here would reach /etc/ssh and break sshd's reload. Runs in
   * development mode too: it changes nothing.
   */
  async readable(key: SshHostKey): Promise<boolean> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cellar-host-key-'));
    try {
      const file = path.join(dir, 'key');
      await writeFile(file, key.privateKey, { mode: 0o600 });
      // -P '': a key with a passphrase fails instead of asking for one (sshd could not read it either).
      const derived = await this.deps.runner.read(['ssh-keygen', '-y', '-P', '', '-f', file], { allowFailure: true, timeoutMs: 10_000 });
      if (derived.exitCode !== 0) return false;
      const [type, blob] = derived.stdout.trim().split(/\s+/);
      const [givenType, givenBlob] = key.publicKey.trim().split(/\s+/);
      return type === givenType && blob === givenBlob;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  static isName(name: string): boolean {
    return keyName.test(name);
  }

  async read(): Promise<SshHostKey[]> {
    const dir = this.deps.dir;
    if (!dir) return [];
    const names = (await readdir(dir)).filter((n) => keyName.test(n)).sort();
    const keys: SshHostKey[] = [];
    for (const name of names) {
      const publicKey = await readFile(path.join(dir, `${name}.pub`), 'utf8').catch(() => null);
      if (publicKey !== null) keys.push({ name, privateKey: await readFile(path.join(dir, name), 'utf8'), publicKey });
    }
    return keys;
  }

  /** Writes each key beside a temporary name first, then renames, so sshd never reads half a key. */
  async write(keys: readonly SshHostKey[]): Promise<void> {
    const dir = this.deps.dir;
    if (!dir) {
      this.deps.logger.debug('would write SSH host keys', { component: 'host', names: keys.map((k) => k.name) });
      return;
    }
    for (const key of keys) {
      const file = path.join(dir, key.name);
      await writeFile(`${file}.restore`, key.privateKey, { mode: 0o600 });
      await writeFile(`${file}.pub.restore`, key.publicKey, { mode: 0o644 });
      await rename(`${file}.restore`, file);
      await rename(`${file}.pub.restore`, `${file}.pub`);
    }
    this.deps.logger.info('SSH host keys restored', { logCode: 'host.sshKeysRestored', component: 'host', names: keys.map((k) => k.name) });
  }
}

import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../command-runner.ts';

/** An OpenSSH public key line reduced to what is trusted: its type and its key, never its comment. */
export interface PublicKeyLine {
  type: 'ssh-ed25519';
  blob: string;
}

const ed25519Line = /^ssh-ed25519 ([A-Za-z0-9+/]{68}) ?[^\n\r]{0,200}$/;

/**
 * Reads one ed25519 public key line. The key text comes from another box, so only the fixed form
 * is accepted (one line, the type, the base64 of a 51-byte key blob naming the same type); the
 * comment is dropped, since it ends up in authorized_keys and known_hosts.
 */
export function parseEd25519Line(text: string): PublicKeyLine | null {
  const match = ed25519Line.exec(text.trim());
  if (!match) return null;
  const blob = Buffer.from(match[1]!, 'base64');
  // The blob repeats the type: length-prefixed "ssh-ed25519", then the 32-byte key.
  const typeLength = blob.readUInt32BE(0);
  if (blob.length !== 51 || typeLength !== 11 || blob.subarray(4, 15).toString('latin1') !== 'ssh-ed25519') return null;
  return { type: 'ssh-ed25519', blob: match[1]! };
}

/** The key's fingerprint as ssh shows it (`SHA256:` and unpadded base64 of the blob's hash). */
export function sshFingerprint(key: PublicKeyLine): string {
  return `SHA256:${createHash('sha256').update(Buffer.from(key.blob, 'base64')).digest('base64').replace(/=+$/, '')}`;
}

export const keyLine = (key: PublicKeyLine) => `${key.type} ${key.blob}`;

/** Where a source keeps one pairing's files: its key pair and the target's pinned host key. */
export interface PairingKeyFiles {
  keyPath: string;
  knownHostsPath: string;
}

/**
 * The source's side of a pairing on disk, below `<data dir>/replication/<pairing>`: an ed25519
 * key pair made by ssh-keygen (0600, no passphrase: the daemon uses it unattended) and a
 * known_hosts file holding only the target's pinned host key, so ssh trusts nothing else there.
 */
export class PairingKeys {
  constructor(private readonly deps: { dir: string; runner: CommandRunner }) {}

  files(pairingId: string): PairingKeyFiles {
    const dir = path.join(this.deps.dir, pairingId);
    return { keyPath: path.join(dir, 'id_ed25519'), knownHostsPath: path.join(dir, 'known_hosts') };
  }

  /** A new key pair for the pairing; answers its public key. */
  async make(pairingId: string): Promise<PublicKeyLine> {
    const { keyPath } = this.files(pairingId);
    await mkdir(path.dirname(keyPath), { recursive: true, mode: 0o700 });
    // -N '': no passphrase; -C: a comment saying what the key is for in the target's authorized_keys.
    await this.deps.runner.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', `cellar-pairing-${pairingId}`, '-f', keyPath], { timeoutMs: 30_000 });
    const key = parseEd25519Line(await readFile(`${keyPath}.pub`, 'utf8'));
    if (!key) throw new Error('ssh-keygen made no ed25519 key');
    return key;
  }

  /** Pins the target's host key for `host` and `port`, as ssh looks it up (`[host]:port` off port 22). */
  async pin(pairingId: string, host: string, port: number, hostKey: PublicKeyLine): Promise<void> {
    const name = port === 22 ? host : `[${host}]:${port}`;
    await writeFile(this.files(pairingId).knownHostsPath, `${name} ${keyLine(hostKey)}\n`, { mode: 0o600 });
  }

  async remove(pairingId: string): Promise<void> {
    await rm(path.dirname(this.files(pairingId).keyPath), { recursive: true, force: true });
  }
}

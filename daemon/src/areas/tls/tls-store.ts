import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TlsAuthorityReplacement } from '../../../../shared/src/api/tls/tls.ts';
import { secretFile } from '../../core/secret-file.ts';
import type { AuthorityMaterial, IssuedMaterial } from './authority.ts';
import type { RevokedEntry } from './crl.ts';

export interface TlsStoreSettings {
  extraNames: string[];
  nextIssuedId: number;
  /** Kept after the box replaced an authority made before its root was constrained: the web warns to trust again. */
  replacedAuthority?: TlsAuthorityReplacement | null;
  /** Serials of revoked device certificates: they stay on the revocation list even once removed from the list of issued ones. */
  revoked?: RevokedEntry[];
}

/** An issued certificate as kept: never its key. */
export interface IssuedRecord {
  id: number;
  createdAt: string;
  certificatePem: string;
}

const defaultSettings: TlsStoreSettings = { extraNames: [], nextIssuedId: 1 };

const pickAuthority = (a: AuthorityMaterial): AuthorityMaterial => ({
  rootPem: a.rootPem,
  intermediatePem: a.intermediatePem,
  intermediateKeyPem: a.intermediateKeyPem,
  localDomain: a.localDomain,
  scope: a.scope,
});

/** Everything the folder holds, keys in the clear: what a backup carries (encrypted by the backup's own password). */
export interface TlsSnapshot {
  authority: AuthorityMaterial | null;
  box: IssuedMaterial | null;
  custom: IssuedMaterial | null;
  settings: TlsStoreSettings;
  issued: IssuedRecord[];
}

/**
 * Everything of the TLS area in one folder of the data directory (`tls/`), so a backup exports
 * and imports it as a whole: authority.json, box.json, custom.json, settings.json and issued/<id>.json.
 * Private keys are encrypted (PKCS#8, AES-256) with a key kept beside it in the data
 * directory (`tls-secret`), so a copy of the folder alone gives no key away.
 */
export class TlsStore {
  private readonly secret: string;

  constructor(
    readonly dir: string,
    secretPath: string,
  ) {
    mkdirSync(path.join(dir, 'issued'), { recursive: true, mode: 0o700 });
    this.secret = secretFile(secretPath);
  }

  /** The authority; a root key an older version kept in the file is never read (see holdsRootKey). */
  readAuthority(): AuthorityMaterial | null {
    const stored = this.read<AuthorityMaterial>('authority.json');
    return stored && { ...pickAuthority(stored), intermediateKeyPem: this.decrypt(stored.intermediateKeyPem) };
  }

  /** Whether the file still holds a root key, as versions before the constrained root kept it: the authority is then replaced. */
  holdsRootKey(): boolean {
    const stored = this.read<Record<string, unknown>>('authority.json');
    return stored !== null && 'rootKeyPem' in stored;
  }

  /** The root certificate alone, without decrypting any key. */
  rootPem(): string | null {
    return this.read<AuthorityMaterial>('authority.json')?.rootPem ?? null;
  }

  writeAuthority(authority: AuthorityMaterial): void {
    this.write('authority.json', this.sealedAuthority(authority));
  }

  /** Only the authority's own fields: a root key that came along (an old backup) is never written. */
  private sealedAuthority(authority: AuthorityMaterial): AuthorityMaterial {
    return { ...pickAuthority(authority), intermediateKeyPem: this.encrypt(authority.intermediateKeyPem) };
  }

  private sealed(material: IssuedMaterial): IssuedMaterial {
    return { ...material, privateKeyPem: this.encrypt(material.privateKeyPem) };
  }

  readBox(): IssuedMaterial | null {
    return this.readKeyed('box.json');
  }

  writeBox(material: IssuedMaterial): void {
    this.write('box.json', this.sealed(material));
  }

  /** The uploaded certificate: `certificatePem` holds the whole chain. */
  readCustom(): IssuedMaterial | null {
    return this.readKeyed('custom.json');
  }

  writeCustom(material: IssuedMaterial): void {
    this.write('custom.json', this.sealed(material));
  }

  removeCustom(): void {
    rmSync(path.join(this.dir, 'custom.json'), { force: true });
  }

  settings(): TlsStoreSettings {
    return { ...defaultSettings, ...this.read<TlsStoreSettings>('settings.json') };
  }

  writeSettings(settings: TlsStoreSettings): void {
    this.write('settings.json', settings);
  }

  listIssued(): IssuedRecord[] {
    return readdirSync(path.join(this.dir, 'issued'))
      .filter((f) => /^\d+\.json$/.test(f))
      .map((f) => this.read<IssuedRecord>(path.join('issued', f)))
      .filter((r): r is IssuedRecord => r !== null)
      .sort((a, b) => a.id - b.id);
  }

  readIssued(id: number): IssuedRecord | null {
    return this.read<IssuedRecord>(path.join('issued', `${id}.json`));
  }

  writeIssued(record: IssuedRecord): void {
    this.write(path.join('issued', `${record.id}.json`), record);
  }

  /** Answers whether there was one. */
  removeIssued(id: number): boolean {
    const file = path.join(this.dir, 'issued', `${id}.json`);
    if (!existsSync(file)) return false;
    rmSync(file);
    return true;
  }

  snapshot(): TlsSnapshot {
    return { authority: this.readAuthority(), box: this.readBox(), custom: this.readCustom(), settings: this.settings(), issued: this.listIssued() };
  }

  /**
   * Replaces the folder's content with a snapshot, its keys encrypted with this data directory's key.
   * The daemon restarts after a restore (spec 3), so no running service keeps the old authority.
   * The new folder is written beside and swapped in: a key that does not seal or a failed write
   * leaves the old folder whole, never an authority without its box certificate.
   */
  restore(snapshot: TlsSnapshot): void {
    const files = new Map<string, unknown>([['settings.json', snapshot.settings]]);
    if (snapshot.authority) files.set('authority.json', this.sealedAuthority(snapshot.authority));
    if (snapshot.box) files.set('box.json', this.sealed(snapshot.box));
    if (snapshot.custom) files.set('custom.json', this.sealed(snapshot.custom));
    for (const record of snapshot.issued) files.set(path.join('issued', `${record.id}.json`), record);
    const staged = `${this.dir}.restoring`;
    const old = `${this.dir}.replaced`;
    rmSync(staged, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
    try {
      mkdirSync(path.join(staged, 'issued'), { recursive: true, mode: 0o700 });
      for (const [name, value] of files) writeFileSync(path.join(staged, name), `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    } catch (err) {
      rmSync(staged, { recursive: true, force: true });
      throw err;
    }
    if (existsSync(this.dir)) renameSync(this.dir, old);
    renameSync(staged, this.dir);
    rmSync(old, { recursive: true, force: true });
  }

  private readKeyed(name: string): IssuedMaterial | null {
    const stored = this.read<IssuedMaterial>(name);
    return stored && { ...stored, privateKeyPem: this.decrypt(stored.privateKeyPem) };
  }

  private encrypt(keyPem: string): string {
    return createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: this.secret }).toString();
  }

  private decrypt(encryptedPem: string): string {
    return createPrivateKey({ key: encryptedPem, passphrase: this.secret }).export({ type: 'pkcs8', format: 'pem' }).toString();
  }

  private read<T>(name: string): T | null {
    const file = path.join(this.dir, name);
    if (!existsSync(file)) return null;
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  }

  /** Write beside, then rename: a crash leaves the old file or the new one, never half of one. */
  private write(name: string, value: unknown): void {
    const file = path.join(this.dir, name);
    const temp = `${file}.tmp`;
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  }
}

import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ListedBox, SystemTrustStore } from '../bridge.ts';
import { ConsoleError } from './console-error.ts';

/** A box the user added by address or trusted; kept per user in the console's data folder. */
export interface KnownBox {
  id: string;
  name: string;
  /** Origin only: scheme, host and port. */
  url: string;
  installId: string | null;
  /** The pinned root: its certificate, so chains that leave it out still verify, and its fingerprint. */
  pin: { pem: string; sha256: string; pinnedAt: string } | null;
  warning: ListedBox['warning'];
  /** The root the console put into this computer's stores, as named there, and which stores took it: what removal undoes. */
  systemTrust?: { pem: string; name: string; stores: SystemTrustStore[] } | null;
  addedAt: string;
}

interface StoreFile {
  version: 1;
  boxes: KnownBox[];
}

/** An origin the console may talk to: http(s), a host, a port, nothing else (no user, path or query). */
export function normaliseBoxUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(input.trim()) ? input.trim() : `https://${input.trim()}`);
  } catch {
    throw new ConsoleError('console.address.invalid');
  }
  const bare = url.username === '' && url.password === '' && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  if (!['http:', 'https:'].includes(url.protocol) || !bare || !url.hostname) throw new ConsoleError('console.address.invalid');
  // The box listens on 7484 (contract); an address without a port means that one.
  return `${url.protocol}//${url.hostname}:${url.port || '7484'}`;
}

/**
 * The known boxes as one JSON file (mode 0600: the pins decide what the console trusts), written
 * whole to a temporary file and renamed, so a crash never leaves half a list.
 */
export class BoxStore {
  private boxes: KnownBox[];

  constructor(
    private readonly file: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.boxes = BoxStore.read(file);
  }

  private static read(file: string): KnownBox[] {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const parsed = JSON.parse(text) as Partial<StoreFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.boxes)) throw new Error(`${file} is not a box list of this console`);
    return parsed.boxes;
  }

  private save(): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ version: 1, boxes: this.boxes } satisfies StoreFile, null, 2), { mode: 0o600 });
    renameSync(temp, this.file);
  }

  list(): KnownBox[] {
    return this.boxes.map((b) => ({ ...b }));
  }

  get(id: string): KnownBox {
    const box = this.boxes.find((b) => b.id === id);
    if (!box) throw new ConsoleError('console.box.not_found', { id });
    return box;
  }

  /** Adds a box by address; the same address twice answers the box already there. */
  add(input: { url: string; name?: string; installId?: string | null }): KnownBox {
    const url = normaliseBoxUrl(input.url);
    const existing = this.boxes.find((b) => b.url === url);
    if (existing) return existing;
    const box: KnownBox = {
      id: randomUUID(),
      name: input.name?.trim() || new URL(url).hostname,
      url,
      installId: input.installId ?? null,
      pin: null,
      warning: null,
      addedAt: this.now().toISOString(),
    };
    this.boxes.push(box);
    this.save();
    return box;
  }

  pin(id: string, pin: { pem: string; sha256: string }): KnownBox {
    const box = this.get(id);
    box.pin = { ...pin, pinnedAt: this.now().toISOString() };
    box.warning = null;
    this.save();
    return box;
  }

  /** Takes trust back: the pin and any pending warning; the box stays listed. */
  unpin(id: string): KnownBox {
    const box = this.get(id);
    box.pin = null;
    box.warning = null;
    this.save();
    return box;
  }

  /** Which of this computer's stores hold the box's root now (none: null). */
  recordSystemTrust(id: string, record: KnownBox['systemTrust']): void {
    const box = this.get(id);
    box.systemTrust = record && record.stores.length > 0 ? record : null;
    this.save();
  }

  /** Records that the box presented another root; the pin stays until the user trusts again. */
  warn(id: string, fingerprint: string): void {
    const box = this.get(id);
    if (box.warning?.fingerprint === fingerprint) return;
    box.warning = { kind: 'rootChanged', fingerprint, at: this.now().toISOString() };
    this.save();
  }

  /** The install id the box answered (`GET /api/install-id`) for a box added by address. */
  identify(id: string, installId: string): KnownBox {
    const box = this.get(id);
    box.installId = installId;
    this.save();
    return box;
  }

  /** The box answers at another address now (its announcement, checked against the pin, says so). */
  move(id: string, url: string): KnownBox {
    const box = this.get(id);
    box.url = normaliseBoxUrl(url);
    this.save();
    return box;
  }

  forget(id: string): void {
    this.get(id);
    this.boxes = this.boxes.filter((b) => b.id !== id);
    this.save();
  }
}

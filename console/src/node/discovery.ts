import { EventEmitter } from 'node:events';
import type { KnownBox } from './box-store.ts';
import type { ListedBox } from '../bridge.ts';
import { rootScope } from './root-scope.ts';

/** One box as an mDNS answer describes it. */
export interface Announcement {
  /** Stable per announcement, so a goodbye removes what its hello added. */
  key: string;
  name: string;
  host: string;
  port: number;
  addresses: string[];
  mode: 'installed' | 'installer';
  installId: string | null;
  version: string | null;
  scheme: 'http' | 'https';
}

/** What discovery needs of mDNS: hellos and goodbyes until stopped (bonjourBrowser in mdns-browser.ts). */
export interface MdnsBrowser {
  start(onUp: (announcement: Announcement) => void, onDown: (key: string) => void): () => void;
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
const portOf = (url: string) => Number(new URL(url).port || (url.startsWith('https:') ? 443 : 80));

/** Prefers an IPv4 address: a `.local` name needs an mDNS resolver the console's computer may lack. */
export function urlOf(a: Announcement): string {
  const address = a.addresses.find((x) => !x.includes(':')) ?? a.addresses[0];
  const host = address ? (address.includes(':') ? `[${address}]` : address) : a.host;
  return `${a.scheme}://${host}:${a.port}`;
}

/**
 * Whether an announcement and a box the user knows are the same box. A box known with an install
 * id is that installation only: the same address announcing another id (a reinstalled box, or the
 * installation medium on the same machine) is another box. A box known by address alone matches
 * what announces itself at that address and port.
 */
export function sameBox(a: Announcement, box: KnownBox): boolean {
  if (box.installId) return a.installId === box.installId;
  const host = hostOf(box.url);
  return portOf(box.url) === a.port && (host === a.host || a.addresses.includes(host));
}

/**
 * The box list: every announced box merged with the boxes the user added or trusted. A known box
 * that is announced shows once, with both sources; one that is not stays listed as not seen.
 */
export class Discovery extends EventEmitter<{ change: [ListedBox[]]; announced: [Announcement] }> {
  private readonly announced = new Map<string, Announcement>();
  private stopBrowser: (() => void) | null = null;

  constructor(private readonly deps: { browser: MdnsBrowser; known: () => KnownBox[] }) {
    super();
  }

  start(): void {
    this.stopBrowser ??= this.deps.browser.start(
      (a) => {
        this.announced.set(a.key, a);
        this.changed();
        this.emit('announced', a);
      },
      (key) => {
        if (this.announced.delete(key)) this.changed();
      },
    );
  }

  stop(): void {
    this.stopBrowser?.();
    this.stopBrowser = null;
  }

  /** The known boxes changed (added, trusted, forgotten): the list follows. */
  changed(): void {
    this.emit('change', this.list());
  }

  list(): ListedBox[] {
    const seen = new Set<string>();
    const boxes: ListedBox[] = this.deps.known().map((box) => {
      const match = [...this.announced.values()].find((a) => sameBox(a, box));
      if (match) seen.add(match.key);
      return {
        id: box.id,
        name: match?.name ?? box.name,
        url: box.url,
        mode: match?.mode ?? 'unknown',
        version: match?.version ?? null,
        announced: Boolean(match),
        known: true,
        pinned: box.pin?.sha256 ?? null,
        pinnedScope: box.pin ? rootScope(box.pin.pem) : null,
        systemTrust: box.systemTrust?.stores ?? [],
        warning: box.warning,
      };
    });
    for (const a of this.announced.values()) {
      if (seen.has(a.key)) continue;
      boxes.push({
        id: `mdns:${a.key}`,
        name: a.name,
        url: urlOf(a),
        mode: a.mode,
        version: a.version,
        announced: true,
        known: false,
        pinned: null,
        pinnedScope: null,
        systemTrust: [],
        warning: null,
      });
    }
    return boxes.sort((x, y) => x.name.localeCompare(y.name));
  }

  /** The announcement behind a listed, not yet known box (to remember it with its install id). */
  announcement(id: string): Announcement | undefined {
    return id.startsWith('mdns:') ? this.announced.get(id.slice(5)) : undefined;
  }
}

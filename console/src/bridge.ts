/**
 * What the console's pages may ask of the main process: the preload exposes exactly this as
 * `window.cellarConsole`, the browser tests a loopback stand-in over the same Node modules.
 * Runs in the renderer too: no node:, DOM or electron imports here.
 */

export interface ListedBox {
  /** A known box's own id; `mdns:<key>` for an announced box the user has not added yet. */
  id: string;
  name: string;
  url: string;
  /** `unknown`: a known box that is not announced right now. */
  mode: 'installed' | 'installer' | 'unknown';
  version: string | null;
  announced: boolean;
  known: boolean;
  /** SHA-256 fingerprint of the pinned root, or null before trust. */
  pinned: string | null;
  /** What the pinned root can vouch for, or null before trust. */
  pinnedScope: RootScope | null;
  /** Set when the box presented a root other than the pinned one: never accepted silently. */
  warning: { kind: 'rootChanged'; fingerprint: string; at: string } | null;
}

/**
 * The names a root can vouch for, from its critical name constraints: DNS names with their
 * subdomains, and address ranges. `constrained: false` when it has none: it vouches for any name.
 */
export interface RootScope {
  constrained: boolean;
  dnsNames: string[];
  ipRanges: string[];
}

/** The root the box offers, to compare with the fingerprint its own page or screen shows. */
export interface RootOffer {
  fingerprint: string;
  subject: string;
  validTo: string;
  /** The fingerprint pinned for this box before, when it differs: the page warns. */
  pinnedBefore: string | null;
}

/** One table of a backup's part, without secrets (hashes, keys, tokens never leave the main process). */
export interface BackupTable {
  name: string;
  columns: string[];
  rows: (string | number | boolean | null)[][];
}

export interface BackupView {
  createdAt: string;
  box: { name: string; version: string };
  parts: { name: string; counts: Record<string, number>; tables: BackupTable[] }[];
}

/** A failure the pages show: the code is one of the console's or the backup format's, never a message to match. */
export interface BridgeProblem {
  code: string;
  params?: Record<string, unknown>;
}

export interface InstallerCall {
  boxId: string;
  /**
   * The installer's own operations (spec 4.13), and `confirmKey` with `{ fingerprint }` (the
   * medium key's SHA-256 the page showed): the owner confirmed it matches the box's screen, and
   * the console pins that key for every later call.
   */
  operation: 'status' | 'claim' | 'options' | 'networkTest' | 'startNetworkTest' | 'install' | 'reboot' | 'confirmKey';
  body?: unknown;
}

/** The system's stores a root can go into: the user's NSS database (Chrome, Chromium on Linux), Debian's system store, the macOS login keychain, the Windows user's Root store. */
export type SystemTrustStore = 'nss' | 'system' | 'keychain' | 'windows';

/**
 * One store's outcome: `done`; `missing` with the tool and what installs it; `declined` when
 * the user refused the administrator prompt; `failed` with the tool's own words.
 */
export interface SystemTrustResult {
  store: SystemTrustStore;
  state: 'done' | 'missing' | 'declined' | 'failed';
  tool: string | null;
  package: string | null;
  detail: string | null;
}

export interface ConsoleBridge {
  listBoxes(): Promise<ListedBox[]>;
  /** Calls back with the whole list on every change; answers a function that stops it. */
  watchBoxes(listener: (boxes: ListedBox[]) => void): () => void;
  addBox(url: string): Promise<ListedBox>;
  forgetBox(id: string): Promise<void>;
  offerRoot(id: string): Promise<RootOffer>;
  /** Pins the root the box offers now, if its fingerprint is still the one the user compared. */
  trustBox(id: string, fingerprint: string): Promise<ListedBox>;
  /** Installs the box's pinned root into this computer's own stores with the system's tools (the page asks first). */
  trustOnSystem(id: string): Promise<SystemTrustResult[]>;
  /** Opens the box's own web desktop in a window of its own session. */
  openBox(id: string): Promise<void>;
  readBackup(file: Uint8Array, password: string): Promise<BackupView>;
  /** An installer operation with the claim secret the main process keeps. */
  installer(call: InstallerCall): Promise<unknown>;
}

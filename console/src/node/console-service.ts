import type { BackupView, InstallerCall, ListedBox, RootOffer } from '../bridge.ts';
import { readBackupView } from './backup-reader.ts';
import type { BoxStore, KnownBox } from './box-store.ts';
import { ConsoleError } from './console-error.ts';
import type { Discovery } from './discovery.ts';
import { InstallerClient } from './installer-client.ts';
import { checkPinned, type PinVerdict } from './pin-check.ts';
import { fetchRoot, type FetchedRoot } from './root-certificate.ts';

/**
 * What the console's pages ask for, over the Node modules: the Electron main process answers its
 * IPC with it, the browser tests' loopback bridge the same. Nothing here imports electron.
 */
export class ConsoleService {
  private readonly installerClient = new InstallerClient();

  constructor(
    private readonly deps: {
      store: BoxStore;
      discovery: Discovery;
      fetchRoot?: (url: string) => Promise<FetchedRoot>;
    },
  ) {}

  listBoxes(): ListedBox[] {
    return this.deps.discovery.list();
  }

  private listed(id: string): ListedBox {
    const box = this.deps.discovery.list().find((b) => b.id === id);
    if (!box) throw new ConsoleError('console.box.not_found', { id });
    return box;
  }

  /** A known box by id; an announced one is remembered first (with its install id). */
  private known(id: string): KnownBox {
    const announcement = this.deps.discovery.announcement(id);
    if (!announcement) return this.deps.store.get(id);
    const listed = this.listed(id);
    const box = this.deps.store.add({ url: listed.url, name: announcement.name, installId: announcement.installId });
    this.deps.discovery.changed();
    return box;
  }

  addBox(url: string): ListedBox {
    const box = this.deps.store.add({ url });
    this.deps.discovery.changed();
    return this.listed(box.id);
  }

  forgetBox(id: string): void {
    this.deps.store.forget(id);
    this.deps.discovery.changed();
  }

  private fetchRoot(url: string): Promise<FetchedRoot> {
    return (this.deps.fetchRoot ?? fetchRoot)(url);
  }

  async offerRoot(id: string): Promise<RootOffer> {
    const box = this.known(id);
    const root = await this.fetchRoot(box.url);
    const pinnedBefore = box.pin && box.pin.sha256 !== root.sha256 ? box.pin.sha256 : null;
    return { fingerprint: root.sha256, subject: root.subject, validTo: root.validTo, pinnedBefore };
  }

  /** Pins the root the box offers now, only if it is still the one whose fingerprint the user compared. */
  async trustBox(id: string, fingerprint: string): Promise<ListedBox> {
    const box = this.known(id);
    const root = await this.fetchRoot(box.url);
    if (root.sha256 !== fingerprint) throw new ConsoleError('console.root.changed_meanwhile', { fingerprint: root.sha256 });
    this.deps.store.pin(box.id, { pem: root.pem, sha256: root.sha256 });
    this.deps.discovery.changed();
    return this.listed(box.id);
  }

  /** The box a window opens on, with the names its certificate must cover. */
  boxForWindow(id: string): { box: KnownBox; names: string[] } {
    const box = this.known(id);
    return { box, names: [new URL(box.url).hostname.replace(/^\[|\]$/g, '')] };
  }

  /** The certificate check of a box's session; a refused other root becomes the box's warning. */
  verifyCertificate(id: string, hostname: string, chain: string[], now = new Date()): PinVerdict {
    const { box, names } = this.boxForWindow(id);
    const verdict = checkPinned({ hostname, chain, pinnedRootPem: box.pin?.pem ?? null, boxNames: names, now });
    if (!verdict.accept && verdict.reason === 'otherRoot') {
      this.deps.store.warn(box.id, verdict.presentedRoot ?? 'unknown');
      this.deps.discovery.changed();
    }
    return verdict;
  }

  readBackup(file: Uint8Array, password: string): Promise<BackupView> {
    return readBackupView(file, password);
  }

  installer(call: InstallerCall): Promise<unknown> {
    const box = this.listed(call.boxId);
    return this.installerClient.call(box.url, call);
  }
}

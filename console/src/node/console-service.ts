import type { BackupView, InstallerCall, ListedBox, RootOffer, SystemTrustResult } from '../bridge.ts';
import { readBackupView } from './backup-reader.ts';
import type { BoxStore, KnownBox } from './box-store.ts';
import { ConsoleError } from './console-error.ts';
import { installerRoutes } from '../../../shared/src/api/installer/installer.ts';
import { presentedChain } from './box-chain.ts';
import { boxRequest } from './box-request.ts';
import { sameBox, urlOf, type Announcement, type Discovery } from './discovery.ts';
import { InstallerClient, type InstalledBox } from './installer-client.ts';
import { checkPinned, type PinVerdict } from './pin-check.ts';
import { fetchRoot, parseRoot, type FetchedRoot } from './root-certificate.ts';
import { rootScope } from './root-scope.ts';
import { applyRoot, currentTrustHost, planInstall, planRemove, type CommandRunner, type TrustHost } from './system-trust.ts';

/**
 * What the console's pages ask for, over the Node modules: the Electron main process answers its
 * IPC with it, the browser tests' loopback bridge the same. Nothing here imports electron.
 */
export class ConsoleService {
  private readonly installerClient = new InstallerClient((origin, installed) => this.keepInstalled(origin, installed));

  constructor(
    private readonly deps: {
      store: BoxStore;
      discovery: Discovery;
      fetchRoot?: (url: string) => Promise<FetchedRoot>;
      /** The system's trust stores: this process's by default; tests give a home of their own. */
      trustHost?: TrustHost;
      run?: CommandRunner;
    },
  ) {
    // A known box announcing itself at another address (a DHCP change) follows, once the pin vouches for it there.
    deps.discovery.on('announced', (a) => void this.follow(a));
  }

  /** IPC carries whatever a page sends: each argument is checked before it reaches a module. */
  private static text(value: unknown, max = 2048): string {
    if (typeof value !== 'string' || value.length > max) throw new ConsoleError('console.request.invalid');
    return value;
  }

  listBoxes(): ListedBox[] {
    return this.deps.discovery.list();
  }

  private listed(id: string): ListedBox {
    ConsoleService.text(id, 512);
    const box = this.deps.discovery.list().find((b) => b.id === id);
    if (!box) throw new ConsoleError('console.box.not_found', { id });
    return box;
  }

  /**
   * A known box by id; an announced one is remembered first (with its install id). The page may
   * still hold the announced id after that, so the box it became is found again by the same rule
   * that merges them in the list.
   */
  private known(id: string): KnownBox {
    ConsoleService.text(id, 512);
    const announcement = this.deps.discovery.announcement(id);
    if (!announcement) return this.deps.store.get(id);
    const remembered = this.deps.store.list().find((b) => sameBox(announcement, b));
    if (remembered) return this.deps.store.get(remembered.id);
    const box = this.deps.store.add({ url: urlOf(announcement), name: announcement.name, installId: announcement.installId });
    this.deps.discovery.changed();
    return box;
  }

  /** Adds a box by address and asks it for its install id, so its announcements match it wherever it moves. */
  async addBox(url: string): Promise<ListedBox> {
    const box = this.deps.store.add({ url: ConsoleService.text(url) });
    await this.identify(box);
    this.deps.discovery.changed();
    return this.listed(box.id);
  }

  /**
   * `GET /api/install-id` for a box known without one (added by address). Unverified, like the
   * root's fetch: the id only lets announcements match the box; what the console trusts is still
   * the pin. A box that does not answer one (unreachable now, installed without the installer)
   * stays known by its address and is asked again when trusted.
   */
  private async identify(box: KnownBox): Promise<void> {
    if (box.installId) return;
    const answer = await boxRequest(box.url, installerRoutes.installId.method, installerRoutes.installId.path, { timeoutMs: 5000 }).catch(() => null);
    const installId = (answer?.body as { installId?: unknown } | null)?.installId;
    if (answer?.status === 200 && typeof installId === 'string' && installId !== '' && installId.length <= 200) this.deps.store.identify(box.id, installId);
  }

  /**
   * A known, trusted box announced at another address: the box moves there only when the
   * announcement's install id is the box's and the chain presented there passes the pin for that
   * address. Answers whether it moved.
   */
  async follow(a: Announcement): Promise<boolean> {
    if (!a.installId || a.scheme !== 'https') return false;
    const box = this.deps.store.list().find((b) => b.installId === a.installId);
    const url = urlOf(a);
    if (!box?.pin || box.warning || box.url === url) return false;
    const chain = await presentedChain(url).catch(() => null);
    if (!chain) return false;
    const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const verdict = checkPinned({ hostname, chain, pinnedRootPem: box.pin.pem, boxNames: [hostname], now: new Date() });
    if (!verdict.accept) return false;
    this.deps.store.move(box.id, url);
    this.deps.discovery.changed();
    return true;
  }

  /** Forgets a box; with `removeSystemTrust`, takes its root out of this computer's stores first (what the dialog asks). */
  async forgetBox(id: string, removeSystemTrust: boolean): Promise<SystemTrustResult[]> {
    const box = this.deps.store.get(ConsoleService.text(id, 512));
    if (typeof removeSystemTrust !== 'boolean') throw new ConsoleError('console.request.invalid');
    const results = removeSystemTrust ? await this.removeSystemTrust(box) : [];
    this.deps.store.forget(box.id);
    this.deps.discovery.changed();
    return results;
  }

  /** Takes trust back: the root out of the stores the console wrote it to, then the pin. The box stays listed, untrusted. */
  async removeTrust(id: string): Promise<SystemTrustResult[]> {
    const box = this.deps.store.get(ConsoleService.text(id, 512));
    const results = await this.removeSystemTrust(box);
    this.deps.store.unpin(box.id);
    this.deps.discovery.changed();
    return results;
  }

  private trustHost(): TrustHost {
    return this.deps.trustHost ?? currentTrustHost();
  }

  /** Runs planRemove for exactly the stores the console put this root into; a store that refuses stays recorded, to try again. */
  private async removeSystemTrust(box: KnownBox): Promise<SystemTrustResult[]> {
    const written = box.systemTrust;
    if (!written) return [];
    const plan: typeof planRemove = (host, root) => planRemove(host, root).filter((p) => written.stores.includes(p.store));
    const results = await applyRoot(plan, written.pem, written.name, this.trustHost(), this.deps.run);
    const left = written.stores.filter((store) => results.find((r) => r.store === store)?.state !== 'done');
    this.deps.store.recordSystemTrust(box.id, { ...written, stores: left });
    return results;
  }

  private fetchRoot(url: string): Promise<FetchedRoot> {
    return (this.deps.fetchRoot ?? fetchRoot)(url);
  }

  async offerRoot(id: string): Promise<RootOffer> {
    const box = this.known(id);
    const root = await this.fetchRoot(box.url);
    const pinnedBefore = box.pin && box.pin.sha256 !== root.sha256 ? box.pin.sha256 : null;
    return { fingerprint: root.sha256, subject: root.subject, validTo: root.validTo, scope: rootScope(root.pem), pinnedBefore };
  }

  /** Pins the root the box offers now, only if it is still the one whose fingerprint the user compared. */
  async trustBox(id: string, fingerprint: string): Promise<ListedBox> {
    ConsoleService.text(fingerprint, 200);
    const box = this.known(id);
    const root = await this.fetchRoot(box.url);
    if (root.sha256 !== fingerprint) throw new ConsoleError('console.root.changed_meanwhile', { fingerprint: root.sha256 });
    this.deps.store.pin(box.id, { pem: root.pem, sha256: root.sha256 });
    await this.identify(this.deps.store.get(box.id));
    this.deps.discovery.changed();
    return this.listed(box.id);
  }

  /** Puts the pinned root into this computer's stores too; only a pinned root without a pending warning. */
  async trustOnSystem(id: string): Promise<SystemTrustResult[]> {
    const box = this.known(id);
    if (!box.pin || box.warning) throw new ConsoleError('console.box.untrusted', { id: box.id });
    // A root without name constraints would let whoever holds its key intercept every site this computer visits.
    if (!rootScope(box.pin.pem).constrained) throw new ConsoleError('console.root.unconstrained', { id: box.id });
    // A reinstalled box's new root replaces its old one there, rather than adding another root each time.
    if (box.systemTrust && box.systemTrust.pem !== box.pin.pem) await this.removeSystemTrust(box);
    const results = await applyRoot(planInstall, box.pin.pem, box.name, this.trustHost(), this.deps.run);
    // Recorded per store, so removal (removeTrust, forgetBox) undoes exactly what was done.
    const done = results.filter((r) => r.state === 'done').map((r) => r.store);
    const recorded = this.deps.store.get(box.id).systemTrust;
    const before = recorded?.pem === box.pin.pem ? recorded.stores : [];
    this.deps.store.recordSystemTrust(box.id, { pem: box.pin.pem, name: box.name, stores: [...new Set([...before, ...done])] });
    this.deps.discovery.changed();
    return results;
  }

  private namesOf(box: KnownBox): string[] {
    return [new URL(box.url).hostname.replace(/^\[|\]$/g, '')];
  }

  /**
   * The box a window opens on. An HTTPS box opens only once trusted and without a pending
   * warning: its window would refuse every connection anyway. A plain HTTP box (a development
   * daemon the user added by an http:// address) has nothing to pin.
   */
  boxForWindow(id: string): KnownBox {
    const box = this.known(id);
    if (box.url.startsWith('https:') && (!box.pin || box.warning)) throw new ConsoleError('console.box.untrusted', { id: box.id });
    return box;
  }

  /** The certificate check of a box's session; a refused other root becomes the box's warning. */
  verifyCertificate(id: string, hostname: string, chain: string[], now = new Date()): PinVerdict {
    const box = this.known(id);
    const names = this.namesOf(box);
    const verdict = checkPinned({ hostname, chain, pinnedRootPem: box.pin?.pem ?? null, boxNames: names, now });
    if (!verdict.accept && verdict.reason === 'otherRoot') {
      this.deps.store.warn(box.id, verdict.presentedRoot ?? 'unknown');
      this.deps.discovery.changed();
    }
    return verdict;
  }

  async readBackup(file: Uint8Array, password: string): Promise<BackupView> {
    if (!(file instanceof Uint8Array)) throw new ConsoleError('console.request.invalid');
    return readBackupView(file, ConsoleService.text(password));
  }

  installer(call: InstallerCall): Promise<unknown> {
    if (typeof call !== 'object' || call === null) throw new ConsoleError('console.request.invalid');
    // Once the installed box is kept, the medium's announcement merges with it and the page's id is no longer listed: the announcement still names the medium.
    const announcement = this.deps.discovery.announcement(ConsoleService.text(call.boxId, 512));
    const url = announcement ? urlOf(announcement) : this.listed(call.boxId).url;
    this.mediumIds.set(url, call.boxId);
    return this.installerClient.call(url, call);
  }

  /** The listed id of the medium at each origin the wizard installed through: its announcement carries the install id. */
  private readonly mediumIds = new Map<string, string>();

  /**
   * Keeps the box a medium installed, with its root pinned as a box added by address is once the
   * user compared its fingerprint: the root came over the connection pinned to the medium's key,
   * which the owner compared with the box's screen, so the installed box needs no second comparison.
   * It is kept at the medium's address with the install id the medium announced, so the installed
   * box's announcement finds it. A box known at that address before (another install id) was
   * replaced by this installation and is forgotten.
   */
  private keepInstalled(origin: string, installed: InstalledBox): void {
    const root = parseRoot(installed.root.certificate);
    if (root.sha256 !== installed.root.sha256Fingerprint) throw new ConsoleError('console.root.invalid');
    const mediumId = this.mediumIds.get(origin);
    const installId = (mediumId && this.deps.discovery.announcement(mediumId)?.installId) || null;
    const before = this.deps.store.list().find((b) => b.url === origin);
    if (before && before.installId !== installId) this.deps.store.forget(before.id);
    const box = this.deps.store.add({ url: origin, name: installed.boxName ?? undefined, installId });
    if (box.pin?.sha256 !== root.sha256) this.deps.store.pin(box.id, { pem: root.pem, sha256: root.sha256 });
    this.deps.discovery.changed();
  }
}

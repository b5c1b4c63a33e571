/**
 * Runs inside an mDNS namespace (test/helpers/mdns-namespace.ts): real daemons announce themselves
 * (an installed box over HTTPS with its install id, and an installation medium), and the console's
 * own discovery and service find them. Prints what the console saw as one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ListedBox } from '../../console/src/bridge.ts';
import { BoxStore, type KnownBox } from '../../console/src/node/box-store.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import { bonjourBrowser } from '../../console/src/node/mdns-browser.ts';
import { fetchRoot } from '../../console/src/node/root-certificate.ts';
import { writeInstallId } from '../../daemon/src/areas/installer/install-id.ts';
import { startTestDaemon } from './daemon.ts';

export interface DaemonDiscoveryRun {
  installId: string;
  boxUrl: string;
  mediumUrl: string;
  /** The list once both daemons are announced and the trusted box has followed its announcement. */
  boxes: ListedBox[];
  stored: KnownBox[];
  /** The install id the console read from the medium's announcement. */
  mediumId: string | null;
  /** The list after the console learned the medium's id for a box it knows at another address. */
  withMedium: ListedBox[];
  /** A box added by address in a console of its own: what it stored. */
  added: KnownBox | null;
  elapsedMs: number | null;
}

const work = mkdtempSync(path.join(tmpdir(), 'cellar-console-daemons-'));
const installId = randomUUID();
const boxDir = path.join(work, 'box');
mkdirSync(boxDir);
await writeInstallId(boxDir, { installId, installedAt: new Date().toISOString() });
const seams = { installer: { mdns: true, apply: false, reboot: false } };
const box = await startTestDaemon({ dataDir: boxDir, https: true }, seams);
const image = path.join(work, 'system.tar');
writeFileSync(image, '');
const medium = await startTestDaemon({ mode: 'installer', installerImage: image, dataDir: path.join(work, 'medium') }, seams);
const port = new URL(box.url).port;
const root = await fetchRoot(box.url);

// The console knows the box by its install id at the address it had before (a DHCP change since), trusted.
const store = new BoxStore(path.join(work, 'boxes.json'));
const known = store.add({ url: `https://127.0.0.2:${port}`, name: 'attic', installId });
store.pin(known.id, { pem: root.pem, sha256: root.sha256 });
const discovery = new Discovery({ browser: bonjourBrowser(), known: () => store.list() });
// Kept for what its constructor starts: it follows announcements and moves the trusted box.
const _service = new ConsoleService({ store, discovery });
const started = performance.now();
const ready = (list: ListedBox[]) =>
  list.some((b) => b.known && b.announced && b.mode === 'installed' && b.url === box.url) && list.some((b) => !b.known && b.mode === 'installer');
const elapsedMs = await new Promise<number | null>((resolve) => {
  const timer = setTimeout(() => resolve(null), 10_000);
  discovery.on('change', (list) => ready(list) && (clearTimeout(timer), resolve(performance.now() - started)));
  discovery.start();
});
const boxes = discovery.list();

// The medium announces the id the installed box will have: a box the console knows by that id (at another address) is it.
const announcedMedium = boxes.find((b) => !b.known && b.mode === 'installer');
const mediumId = announcedMedium ? (discovery.announcement(announcedMedium.id)?.installId ?? null) : null;
if (mediumId) store.add({ url: 'https://127.0.0.3:7484', name: 'newbox', installId: mediumId });
const withMedium = discovery.list();

// A console of its own adds the box by address and asks it for its install id.
const other = new BoxStore(path.join(work, 'other.json'));
const otherService = new ConsoleService({ store: other, discovery: new Discovery({ browser: { start: () => () => {} }, known: () => other.list() }) });
await otherService.addBox(box.url);

discovery.stop();
await box.close();
await medium.close();
rmSync(work, { recursive: true, force: true });
const run: DaemonDiscoveryRun = {
  installId,
  boxUrl: box.url,
  mediumUrl: medium.url,
  boxes,
  stored: store.list(),
  mediumId,
  withMedium,
  added: other.list()[0] ?? null,
  elapsedMs,
};
console.log(JSON.stringify(run));
process.exit(0);

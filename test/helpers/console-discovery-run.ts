/**
 * Runs inside an mDNS namespace (test/helpers/mdns-namespace.ts): announces the given boxes the
 * way a daemon does, starts the console's discovery with a box store holding the known boxes, and
 * prints the list once it holds `expect` entries, with the time that took.
 */
import { Bonjour } from 'bonjour-service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import { bonjourBrowser } from '../../console/src/node/mdns-browser.ts';

interface Input {
  announce: { name: string; type: string; port: number; txt: Record<string, string> }[];
  known: { url: string; installId?: string }[];
  expect: number;
  /** Waits this long after the announcements before starting discovery (boxes already up). */
  settleMs?: number;
  /** Stops one announcement after the list is complete and reports the list again. */
  goodbye?: string;
  /** Times a bare bonjour-service browser to its first answer instead (the benchmark's baseline). */
  bare?: boolean;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-'));
const store = new BoxStore(path.join(dir, 'boxes.json'));
for (const box of input.known) store.add(box);
const announcer = new Bonjour();
const services = input.announce.map((a) => announcer.publish({ ...a, host: `${a.name}.local` }));
await new Promise((r) => setTimeout(r, input.settleMs ?? 0));

if (input.bare) {
  const started = performance.now();
  const browser = new Bonjour();
  const elapsedMs = await new Promise<number>((resolve) => browser.find({ type: input.announce[0]!.type }, () => resolve(performance.now() - started)));
  browser.destroy();
  announcer.unpublishAll(() => announcer.destroy());
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ elapsedMs, boxes: [], afterGoodbye: null }));
  process.exit(0);
}

const started = performance.now();
const discovery = new Discovery({ browser: bonjourBrowser(), known: () => store.list() });
const complete = new Promise<number>((resolve) => {
  discovery.on('change', (boxes) => {
    if (boxes.filter((b) => b.announced).length >= input.expect) resolve(performance.now() - started);
  });
});
discovery.start();
const timeout = setTimeout(() => {
  console.log(JSON.stringify({ elapsedMs: null, boxes: discovery.list() }));
  process.exit(0);
}, 8000);
const elapsedMs = await complete;
const boxes = discovery.list();
let afterGoodbye = null;
if (input.goodbye) {
  const gone = new Promise<void>((resolve) => discovery.on('change', (list) => !list.some((b) => b.name === input.goodbye && b.announced) && resolve()));
  services.find((s) => s.name === input.goodbye)?.stop?.();
  await gone;
  afterGoodbye = discovery.list();
}
clearTimeout(timeout);
discovery.stop();
announcer.unpublishAll(() => announcer.destroy());
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ elapsedMs, boxes, afterGoodbye }));
process.exit(0);

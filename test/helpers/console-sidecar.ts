/**
 * The console's Node side for a browser test of discovery, run inside an mDNS namespace
 * (test/helpers/mdns-namespace.ts): a real daemon announced over mDNS as installed and as waiting
 * for installation (bonjour-service, as the daemon announces itself), and the ConsoleService with
 * real mDNS discovery, answering bridge calls on a unix socket (file system, so it crosses the
 * namespace to the test's Chromium). Prints one JSON line when ready; ends when stdin closes.
 */
import { Bonjour } from 'bonjour-service';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleError } from '../../console/src/node/console-error.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import { bonjourBrowser } from '../../console/src/node/mdns-browser.ts';
import { startTestDaemon } from './daemon.ts';

const { socketPath } = JSON.parse(process.argv[2] ?? '{}') as { socketPath: string };
const box = await startTestDaemon();
const port = Number(new URL(box.url).port);
const rootFingerprint = new X509Certificate(await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text()).fingerprint256;
const announcer = new Bonjour();
announcer.publish({ name: 'attic', type: 'cellar', port, host: 'attic.local', txt: { installId: 'attic-id', version: '0.1.0', scheme: 'http' } });
announcer.publish({ name: 'newbox', type: 'cellar-installer', port, host: 'newbox.local', txt: { version: '0.1.0', scheme: 'http' } });

const dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-sidecar-'));
const store = new BoxStore(path.join(dir, 'boxes.json'));
const discovery = new Discovery({ browser: bonjourBrowser(), known: () => store.list() });
const service = new ConsoleService({ store, discovery });
discovery.start();

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', async () => {
    const { name, args } = JSON.parse(body) as { name: string; args: unknown[] };
    if (name === 'readBackup') args[0] = Buffer.from(String(args[0]), 'base64');
    let answer: unknown;
    try {
      const run = (service as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
      if (!run) throw new ConsoleError('console.request.invalid');
      answer = { ok: true, value: (await run.apply(service, args)) ?? null };
    } catch (err) {
      answer = err instanceof ConsoleError ? { ok: false, problem: err.toProblem() } : { ok: false, problem: { code: String(err) } };
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });
});
await new Promise<void>((resolve) => server.listen(socketPath, resolve));
console.log(JSON.stringify({ daemonUrl: box.url, rootFingerprint }));

process.stdin.resume();
process.stdin.on('end', async () => {
  discovery.stop();
  server.close();
  await new Promise<void>((resolve) => announcer.unpublishAll(() => resolve()));
  announcer.destroy();
  await box.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});

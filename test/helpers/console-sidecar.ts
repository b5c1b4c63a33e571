/**
 * The console's Node side for a browser test of discovery, run inside an mDNS namespace
 * (test/helpers/mdns-namespace.ts): a real daemon announced over mDNS as installed and as waiting
 * for installation (bonjour-service, as the daemon announces itself), and the console beside it
 * (test/helpers/console-sidecar-bridge.ts). Prints one JSON line when ready; ends when stdin closes.
 */
import { Bonjour } from 'bonjour-service';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mdnsTxt } from '../../shared/src/mdns.ts';
import { runConsoleSidecar } from './console-sidecar-bridge.ts';
import { startTestDaemon } from './daemon.ts';

const { socketPath } = JSON.parse(process.argv[2] ?? '{}') as { socketPath: string };
const box = await startTestDaemon();
const port = Number(new URL(box.url).port);
const rootFingerprint = new X509Certificate(await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text()).fingerprint256;
const announcer = new Bonjour();
announcer.publish({ name: 'attic', type: 'cellar', port, host: 'attic.local', txt: mdnsTxt({ installId: 'attic-id', version: '0.1.0', scheme: 'http' }) });
announcer.publish({
  name: 'newbox',
  type: 'cellar-installer',
  port,
  host: 'newbox.local',
  txt: mdnsTxt({ installId: null, version: '0.1.0', scheme: 'http' }),
});

const dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-sidecar-'));
await runConsoleSidecar({
  socketPath,
  storeFile: path.join(dir, 'boxes.json'),
  ready: { daemonUrl: box.url, rootFingerprint },
  async stop() {
    await new Promise<void>((resolve) => announcer.unpublishAll(() => resolve()));
    announcer.destroy();
    await box.close();
    rmSync(dir, { recursive: true, force: true });
  },
});

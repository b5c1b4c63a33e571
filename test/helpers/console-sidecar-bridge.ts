/**
 * What both console sidecars share (run in a network namespace by startInNamespace, see
 * test/helpers/mdns-namespace.ts): the console's ConsoleService with real mDNS discovery,
 * answering bridge calls on a unix socket (a file, so it crosses the namespace to the test's
 * Chromium; test/helpers/console-pages.ts, socketBridge). Prints the ready line, then ends the
 * sidecar's own parts when stdin closes.
 */
import { createServer } from 'node:http';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import { bonjourBrowser } from '../../console/src/node/mdns-browser.ts';
import { serviceBridge } from './console-pages.ts';

export interface ConsoleSidecar {
  socketPath: string;
  /** The console's list of known boxes. */
  storeFile: string;
  /** What the test reads once the sidecar is ready, as one JSON line on stdout. */
  ready: unknown;
  /** Ends what the sidecar started besides the console (its daemon, its announcements). */
  stop(): Promise<void>;
}

export async function runConsoleSidecar(sidecar: ConsoleSidecar): Promise<void> {
  const store = new BoxStore(sidecar.storeFile);
  const discovery = new Discovery({ browser: bonjourBrowser(), known: () => store.list() });
  const call = serviceBridge(new ConsoleService({ store, discovery }));
  discovery.start();

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', async () => {
      const { name, args } = JSON.parse(body) as { name: string; args: unknown[] };
      // socketBridge sends a backup file's bytes as base64.
      if (name === 'readBackup') args[0] = Buffer.from(String(args[0]), 'base64');
      // Anything but a ConsoleError still answers, so the page shows it instead of waiting.
      const answer = await call(name, args).catch((err: unknown) => ({ ok: false, problem: { code: String(err) } }));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(sidecar.socketPath, resolve));
  process.stdout.write(`${JSON.stringify(sidecar.ready)}\n`);

  process.stdin.resume();
  process.stdin.on('end', async () => {
    discovery.stop();
    server.close();
    await sidecar.stop();
    process.exit(0);
  });
}

/**
 * The box side of the console wizard's browser test (test/e2e/console-installer.test.ts), run
 * inside the test's network namespace: a real daemon in installer mode that installs for real onto
 * the test's loop devices and announces itself by mDNS, and the console's ConsoleService with real
 * mDNS discovery, answering bridge calls on a unix socket (test/helpers/console-pages.ts,
 * socketBridge). The box's screen is this process's stdout. Prints one JSON line when ready;
 * ends when stdin closes.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleError } from '../../console/src/node/console-error.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import { bonjourBrowser } from '../../console/src/node/mdns-browser.ts';
import { startTestDaemon } from './daemon.ts';

interface Input {
  socketPath: string;
  dataDir: string;
  image: string;
  registryUrl: string;
  minDiskBytes: number;
}
const input = JSON.parse(process.argv[2] ?? '{}') as Input;

const box = await startTestDaemon(
  // Every address of the namespace: the console reaches the box at the address it announces.
  // Console output only for errors, so the screen shows the claim code and little else.
  { mode: 'installer', installerImage: input.image, dataDir: input.dataDir, host: '0.0.0.0', logToConsole: true, logLevel: 'error' },
  { installer: { apply: true, reboot: false, mdns: true, includeLoopDevices: true, minDiskBytes: input.minDiskBytes, registryUrl: input.registryUrl } },
);

const store = new BoxStore(path.join(path.dirname(input.socketPath), 'boxes.json'));
const discovery = new Discovery({ browser: bonjourBrowser(), known: () => store.list() });
const service = new ConsoleService({ store, discovery });
discovery.start();

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', async () => {
    const { name, args } = JSON.parse(body) as { name: string; args: unknown[] };
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
await new Promise<void>((resolve) => server.listen(input.socketPath, resolve));
process.stdout.write(`${JSON.stringify({ daemonUrl: box.url })}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  discovery.stop();
  server.close();
  // Waits for a running installation, which unmounts what it mounted.
  await box.close({ keepData: true });
  process.exit(0);
});

/**
 * The box side of the console wizard's browser test (test/e2e/console-installer.test.ts), run
 * inside the test's network namespace: a real daemon in installer mode that installs for real onto
 * the test's loop devices and announces itself by mDNS, and the console beside it
 * (test/helpers/console-sidecar-bridge.ts). The box's screen is this process's stdout. Prints one
 * JSON line when ready; ends when stdin closes.
 */
import path from 'node:path';
import { runConsoleSidecar } from './console-sidecar-bridge.ts';
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

await runConsoleSidecar({
  socketPath: input.socketPath,
  storeFile: path.join(path.dirname(input.socketPath), 'boxes.json'),
  ready: { daemonUrl: box.url },
  // Waits for a running installation, which unmounts what it mounted.
  stop: () => box.close({ keepData: true }),
});

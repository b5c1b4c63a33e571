// The installer's network test from inside the test's network namespace: starts an installer
// daemon there, claims it, tests the configuration given as JSON and prints the final status.
//   ip netns exec <ns> node --import=tsx test/helpers/network-test-probe.ts <data dir> '<config json>' <registry url>
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { claimHeader, type InstallerNetworkConfig } from '../../shared/src/api/installer/installer.ts';
import { startTestDaemon } from './daemon.ts';

const [dataDir, configJson, registryUrl] = process.argv.slice(2) as [string, string, string];
const image = path.join(dataDir, '..', 'image.tar');
writeFileSync(image, '');
const box = await startTestDaemon(
  { mode: 'installer', installerImage: image, dataDir },
  { installer: { apply: true, reboot: false, mdns: false, registryUrl } },
);
try {
  const c = box.client();
  const headers = { [claimHeader]: (await c.api.installer.claim()).claimSecret! };
  const started = await c.api.installer.startNetworkTest({ body: JSON.parse(configJson) as InstallerNetworkConfig, headers });
  let status = started;
  while (status.state === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    status = await c.api.installer.networkTest({ headers });
  }
  process.stdout.write(`${JSON.stringify({ started, status })}\n`);
} finally {
  await box.close({ keepData: true });
}
process.exit(0);

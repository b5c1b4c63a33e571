// A program for the mDNS test: run inside a network namespace that has only loopback, it starts a
// daemon that announces itself, browses with bonjour-service, and prints what it found as JSON.
//   ip netns exec <ns> node --import=tsx test/helpers/mdns-probe.ts <cellar|cellar-installer> <data dir> <image>
import { Bonjour, type Service } from 'bonjour-service';
import { startTestDaemon } from './daemon.ts';

const [type, dataDir, image] = process.argv.slice(2) as ['cellar' | 'cellar-installer', string, string];
const box = await startTestDaemon(type === 'cellar-installer' ? { mode: 'installer', installerImage: image, dataDir } : { dataDir }, {
  installer: { mdns: true, apply: false, reboot: false },
});
const port = Number(new URL(box.url).port);
const bonjour = new Bonjour();
try {
  const found = await new Promise<Service>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no _${type}._tcp on port ${port}`)), 10_000);
    bonjour.find({ type }, (service) => {
      if (service.port !== port) return;
      clearTimeout(timer);
      resolve(service);
    });
  });
  const version = (await box.client().api.system.health()).version;
  process.stdout.write(`${JSON.stringify({ name: found.name, type: found.type, txt: found.txt as Record<string, string>, version })}\n`);
} finally {
  bonjour.destroy();
  await box.close({ keepData: true });
}
process.exit(0);

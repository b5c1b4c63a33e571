import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { claimHeader } from '../shared/src/api/installer/installer.ts';
import { startTestDaemon } from '../test/helpers/daemon.ts';
import { systemTestImage, InstallerDisks } from '../test/helpers/installer-disks.ts';
import type { BenchRow } from './lib/table.ts';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * An installation end to end onto a loop device (partitions, file systems, the test image,
 * the configuration with the first administrator, the EFI loader), against writing the same image
 * file to a loop device with dd in the same run. Needs root (loop devices).
 */
export async function installerBench(): Promise<BenchRow[]> {
  const image = systemTestImage();
  const disks = new InstallerDisks();
  try {
    const ddTarget = disks.add('1G');
    const target = disks.add('1G');
    const ddStart = performance.now();
    sh(['dd', `if=${image}`, `of=${ddTarget}`, 'bs=4M', 'conv=fsync', 'status=none']);
    const ddMs = performance.now() - ddStart;

    const box = await startTestDaemon(
      { mode: 'installer', installerImage: image, dataDir: path.join(disks.work, 'data'), logLevel: 'warn' },
      { installer: { apply: true, reboot: false, mdns: false, includeLoopDevices: true, minDiskBytes: 512 * 1024 * 1024 } },
    );
    try {
      const c = box.client();
      const headers = { [claimHeader]: (await c.api.installer.claim()).claimSecret! };
      const start = performance.now();
      await c.api.installer.install({
        body: {
          disk: path.basename(target),
          fileSystem: 'ext4',
          boxName: 'Bench',
          admin: { username: 'owner', password: 'the bench password 1' },
          language: 'en',
          region: null,
          timeZone: 'UTC',
          network: null,
        },
        headers,
      });
      for (;;) {
        const status = await c.api.installer.status().catch(() => null);
        if (status && status.state !== 'installing') {
          if (status.state !== 'done') throw new Error(`the installation failed: ${JSON.stringify(status.failure)}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const installMs = performance.now() - start;
      return [
        {
          name: 'install onto a loop device, end to end',
          value: installMs / 1000,
          unit: 's',
          baseline: ddMs / 1000,
          baselineName: 'dd of the same image',
          target: '≤ 5× dd',
          ok: installMs <= 5 * ddMs,
        },
      ];
    } finally {
      await box.close({ keepData: true });
    }
  } finally {
    disks.cleanup();
  }
}

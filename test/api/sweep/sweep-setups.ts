import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminPassword, startTestDaemon, type TestDaemon } from '../../helpers/daemon.ts';
import { processAdminPassword, startDaemonProcess, type DaemonProcess } from '../../helpers/daemon-process.ts';

/** The two daemons every sweep runs against: one with the host tools, one whose PATH has none of them. */
export const userPassword = 'sweep user password 1';

export function setups(): { name: string; start(): Promise<{ base: string; password: string; close(): Promise<void> }> }[] {
  return [
    {
      name: 'with the host tools',
      start: async () => {
        const box: TestDaemon = await startTestDaemon();
        return { base: box.url, password: adminPassword, close: () => box.close() };
      },
    },
    {
      name: 'without the host tools',
      start: async () => {
        const emptyBin = mkdtempSync(path.join(tmpdir(), 'cellar-sweep-no-tools-'));
        const box: DaemonProcess = await startDaemonProcess({ env: { PATH: emptyBin } });
        return {
          base: box.base,
          password: processAdminPassword,
          close: async () => {
            await box.close();
            rmSync(emptyBin, { recursive: true, force: true });
          },
        };
      },
    },
  ];
}

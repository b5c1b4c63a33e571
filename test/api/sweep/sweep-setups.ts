import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminPassword, startTestDaemon, type TestDaemon } from '../../helpers/daemon.ts';
import { processAdminPassword, startDaemonProcess, type DaemonProcess } from '../../helpers/daemon-process.ts';
import type { Operation, resolver } from './openapi-walk.ts';
import { loadOperations, observable, send, signIn, type Caller } from './sweep-run.ts';

/** The two daemons every sweep runs against: one with the host tools, one whose PATH has none of them. */
const userPassword = 'sweep user password 1';

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

/** A started set-up with an administrator, a plain user, the operations and what refused requests must leave unchanged. */
export interface PreparedSweep {
  base: string;
  close(): Promise<void>;
  ops: Operation[];
  resolve: ReturnType<typeof resolver>;
  admin: Caller;
  user: Caller;
  baseline: string;
}

export async function prepareSweep(setup: ReturnType<typeof setups>[number]): Promise<PreparedSweep> {
  const started = await setup.start();
  const admin = await signIn(started.base, 'admin', started.password);
  const made = await send(started.base, admin, 'POST', '/api/users', { body: JSON.stringify({ username: 'sweepuser', password: userPassword }) });
  if (made.status !== 201) throw new Error(`the sweep's user was not made: ${made.status} ${await made.text()}`);
  const user = await signIn(started.base, 'sweepuser', userPassword);
  const { ops, resolve } = await loadOperations(started.base);
  return { base: started.base, close: started.close, ops, resolve, admin, user, baseline: await observable(started.base, admin) };
}

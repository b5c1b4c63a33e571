import { chmodSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import { appAccountName } from '../../daemon/src/host/app-accounts.ts';
import type { BackendLimitValues } from '../../daemon/src/host/app-backends/backend-limits.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';
import { ensureZfsFuse, LoopDisks, sh, waitJob } from './zfs-fixture.ts';

const mib = 1024 * 1024;
/** The apps' accounts the system tests may create (app40000, app40001), removed again afterwards. */
const testUids = [40000, 40001];

export interface AppsBox {
  box: TestDaemon;
  admin: TestClient;
  pool: string;
  /** The example app built as a package. */
  built: string;
  /** Uploads a package and installs it, answering the finished job. */
  install(body: Buffer, request?: { pool?: string }): Promise<Job>;
  close(): Promise<void>;
}

const quiet = (argv: string[]) => {
  try {
    return sh(argv);
  } catch {
    return null;
  }
};

/**
 * A daemon as root with real app accounts and a zfs-fuse pool on a loop device, for the apps'
 * system tests. Its pools are mounted below a folder the apps' accounts can pass through.
 */
export async function startAppsBox(prefix: string, apps: { backendLimits?: BackendLimitValues } = {}): Promise<AppsBox> {
  if (process.getuid?.() !== 0) throw new Error('the apps system tests need root (real accounts and zfs-fuse)');
  await ensureZfsFuse();
  const disks = new LoopDisks(`${prefix}${process.pid}`);
  const pool = `${disks.prefix}a`;
  disks.add(1);
  chmodSync(disks.work, 0o755);
  const box = await startTestDaemon(
    {},
    {
      apps: { accounts: true, ...apps },
      storage: { apply: true, includeLoopDevices: true, minDiskBytes: 64 * mib, mountRoot: path.join(disks.work, 'mnt'), importDirs: ['/dev'] },
    },
  );
  const admin = await box.signIn();
  disks.pools.add(pool);
  const plan = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool, layout: 'stripe', disks: [disks.name(0)] } });
  expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
  const built = await buildAppPackage('examples/hello-app', await mkdtemp(path.join(tmpdir(), `cellar-${prefix}-`)));
  return {
    box,
    admin,
    pool,
    built,
    async install(body, request = {}) {
      const preview = await admin.api.apps.uploadPackage({ body });
      return finished(admin, (await admin.api.apps.install({ params: { packageId: preview.packageId }, body: request })).id, 60_000);
    },
    async close() {
      await box.close();
      await disks.cleanup();
      for (const uid of testUids) {
        for (const pid of (quiet(['pgrep', '-u', String(uid)]) ?? '').split('\n').filter(Boolean)) quiet(['kill', '-9', pid]);
        if (quiet(['getent', 'passwd', appAccountName(uid)])) sh(['userdel', appAccountName(uid)]);
        if (quiet(['getent', 'group', appAccountName(uid)])) sh(['groupdel', appAccountName(uid)]);
      }
      await rm(path.dirname(built), { recursive: true, force: true });
    },
  };
}

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { AdminAppList } from '../../shared/src/api/apps/apps.ts';
import { expectProblem, type TestClient } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { tgzOf } from '../helpers/tar-builder.ts';
import { startAppsBox, type AppsBox } from './apps-fixture.ts';
import { sh, zfsGet } from './zfs-fixture.ts';

// Real limits as root: the backend runs in a group of its own (a cgroup here, a systemd scope on
// a box) and forks past its task limit; the app's volume is a zfs-fuse dataset with a quota.
const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;
const appId = 'org.example.bomb';
const uid = 40000;
const mib = 1024 * 1024;
const limits = { memoryBytes: 256 * mib, tasks: 24, cpuPercent: 50 };

/** A backend that tries to start 60 processes and keeps running, telling how many the box refused. */
const bomb = `
const { spawn } = require('node:child_process');
let started = 0;
let refused = 0;
for (let i = 0; i < 60; i++) {
  try {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    child.on('spawn', () => started++);
    child.on('error', () => refused++);
  } catch {
    refused++;
  }
}
setTimeout(() => console.log('forked ' + started + ' refused ' + refused), 3000);
setInterval(() => {}, 60000);
`;

function bombApp(): Buffer {
  const manifest: AppManifest = { ...example, id: appId, name: 'Bomb', quotaMiB: 64, backend: { command: ['node', 'bomb.js'], listen: 'unix-socket' } };
  return tgzOf([
    { name: 'manifest.json', body: JSON.stringify(manifest) },
    { name: 'icon.svg', body: readFileSync('examples/hello-app/icon.svg') },
    { name: 'frontend/', type: 'dir' },
    { name: 'frontend/index.html', body: '<!doctype html><title>bomb</title>' },
    { name: 'backend/', type: 'dir' },
    { name: 'backend/bomb.js', body: bomb },
  ]);
}

const pidsOf = (account: number): number[] => {
  try {
    return sh(['pgrep', '-u', String(account)])
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};
/** The groups a process is in, one `hierarchy:path` line each, as /proc tells. */
const cgroupsOf = (pid: number) => readFileSync(`/proc/${pid}/cgroup`, 'utf8').trim().split('\n');
/** As the app's own account, the way its backend writes. */
const asApp = (argv: string[]) => sh(['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--no-new-privs', '--', ...argv]);

describe('app backends’ limits and app volumes’ quotas (cgroups and zfs-fuse, as root)', function () {
  this.timeout(180_000);
  let apps: AppsBox;
  let admin: TestClient;
  let pool: string;
  let list: AdminAppList;
  const dataset = () => `${pool}/apps/${appId}`;
  const quotaOnDisk = () => Number(zfsGet('quota', dataset()));
  const details = async () => (await admin.api.apps.list()).apps.find((a) => a.id === appId);

  before(async () => {
    apps = await startAppsBox('cellarlm', { backendLimits: limits });
    ({ admin, pool } = apps);
    const job = await apps.install(bombApp(), { pool });
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    list = await admin.api.apps.list();
  });
  after(() => apps?.close());

  it('reports how this machine holds the limits', () => {
    // Root without systemd as PID 1: a cgroup of the daemon's own (v1 or v2, whichever the kernel offers here).
    expect(list.backendLimits).to.deep.equal({ ...list.backendLimits, ...limits, reason: null });
    expect(list.backendLimits.enforcedBy).to.be.oneOf(['cgroup1', 'cgroup2', 'systemd']);
  });

  it('refuses the backend’s forks past its task limit, keeps all of them in its own group, and leaves the daemon unharmed', async () => {
    const line = await eventually(
      async () => (await admin.api.logs.list({ query: { source: [`app/${appId}`] } })).items.map((e) => e.message).find((m) => m.startsWith('forked ')),
      (m) => m !== undefined,
      'the backend telling what it forked',
    ).catch(async () => {
      // eventually waits 5 s; the backend reports after 3 s of its start: one more round.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      return (await admin.api.logs.list({ query: { source: [`app/${appId}`] } })).items.map((e) => e.message).find((m) => m.startsWith('forked '));
    });
    const [, started, refused] = /^forked (\d+) refused (\d+)$/.exec(line ?? '') ?? [];
    expect(Number(refused), line).to.be.greaterThan(0);
    expect(Number(started)).to.be.lessThan(limits.tasks);
    const pids = pidsOf(uid);
    expect(pids.length).to.be.greaterThan(1).and.at.most(limits.tasks);
    // Every one of them in the app's group, none in the daemon's.
    for (const pid of pids)
      expect(
        cgroupsOf(pid).some((g) => g.includes(`/${appId}`) || g.includes(`cellar-app-${appId}`)),
        String(pid),
      ).to.equal(true);
    const daemonGroups = cgroupsOf(process.pid);
    expect(daemonGroups.some((g) => g.includes(appId))).to.equal(false);
    // The daemon still forks (each list runs zfs for the volumes' usage) and answers.
    const again = await admin.api.apps.list();
    expect(again.apps.find((a) => a.id === appId)?.quota.usedBytes).to.be.a('number');
  });

  it('writes the memory and CPU limits into the backend’s group', () => {
    const [pid] = pidsOf(uid);
    const groups = cgroupsOf(pid as number);
    const dirOf = (controller: string) => {
      // v1: `N:<controller>:/path` below the controller's mount; v2: `0::/path` below /sys/fs/cgroup.
      const v1 = groups.find((g) => g.split(':')[1]?.split(',').includes(controller));
      if (v1) return path.join('/sys/fs/cgroup', v1.split(':')[1] as string, v1.split(':').slice(2).join(':'));
      return path.join('/sys/fs/cgroup', groups.find((g) => g.startsWith('0::'))?.slice(3) ?? '');
    };
    if (list.backendLimits.enforcedBy === 'cgroup1') {
      expect(Number(readFileSync(path.join(dirOf('memory'), 'memory.limit_in_bytes'), 'utf8'))).to.equal(limits.memoryBytes);
      expect(readFileSync(path.join(dirOf('pids'), 'pids.max'), 'utf8').trim()).to.equal(String(limits.tasks));
      expect(readFileSync(path.join(dirOf('cpu'), 'cpu.cfs_quota_us'), 'utf8').trim()).to.equal('50000');
      expect(readFileSync(path.join(dirOf('cpu'), 'cpu.cfs_period_us'), 'utf8').trim()).to.equal('100000');
    } else {
      const dir = dirOf('');
      expect(readFileSync(path.join(dir, 'memory.max'), 'utf8').trim()).to.equal(String(limits.memoryBytes));
      expect(readFileSync(path.join(dir, 'pids.max'), 'utf8').trim()).to.equal(String(limits.tasks));
      expect(readFileSync(path.join(dir, 'cpu.max'), 'utf8').trim()).to.equal('50000 100000');
    }
  });

  it('gives the app’s dataset the manifest’s quota', async () => {
    expect(list.quotaEnforced).to.equal(true);
    expect(quotaOnDisk()).to.equal(64 * mib);
    expect((await details())?.quota).to.deep.include({ bytes: null, defaultBytes: 64 * mib, effectiveBytes: 64 * mib });
  });

  it('lets an administrator set another quota, refuses one below what the volume holds, and returns to none or to the default', async () => {
    const set = (quotaBytes: number | null) => admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes } });
    expect((await set(32 * mib)).quota).to.deep.include({ bytes: 32 * mib, effectiveBytes: 32 * mib });
    expect(quotaOnDisk()).to.equal(32 * mib);
    asApp(['dd', 'if=/dev/urandom', `of=${path.join(zfsGet('mountpoint', dataset()), 'data', 'twenty')}`, 'bs=1M', 'count=20', 'conv=fsync']);
    await eventually(
      async () => (await details())?.quota.usedBytes ?? 0,
      (used) => used > 16 * mib,
      'the written file counted',
    );
    const refused = await expectProblem(set(8 * mib), 'app.quota.below_used', 409);
    expect(refused.problem.params?.usedBytes).to.be.greaterThan(16 * mib);
    expect(quotaOnDisk()).to.equal(32 * mib);
    expect((await set(0)).quota.effectiveBytes).to.equal(null);
    expect(quotaOnDisk()).to.equal(0);
    expect((await set(null)).quota.effectiveBytes).to.equal(64 * mib);
    expect(quotaOnDisk()).to.equal(64 * mib);
  });

  it('holds the app’s own writes to its quota', () => {
    const big = path.join(zfsGet('mountpoint', dataset()), 'data', 'big');
    expect(() => asApp(['dd', 'if=/dev/urandom', `of=${big}`, 'bs=1M', 'count=96', 'conv=fsync'])).to.throw(/quota|exit/i);
    expect(statSync(big).size).to.be.lessThan(64 * mib);
  });

  it('ends every process the backend left behind when the app is switched off', async () => {
    expect(pidsOf(uid).length).to.be.greaterThan(1);
    await admin.api.apps.update({ params: { appId }, body: { enabled: false } });
    await eventually(
      async () => pidsOf(uid),
      (pids) => pids.length === 0,
      'no process of the app left',
    );
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../core/logger.ts';
import { CommandRunner } from '../command-runner.ts';
import { backendConfinement, cgroupExecProgram, type ConfinementOptions } from './backend-limits.ts';

// How the daemon chooses to hold backends' limits, read from a mount table and systemd's run folder
// it is pointed at. The kernel's own enforcement is tested for real in test/system/app-limits.test.ts.
describe('backend limits: choosing systemd, cgroup v2, cgroup v1 or nothing', () => {
  const limits = { memoryBytes: 256 * 1024 * 1024, tasks: 32, cpuPercent: 150 };
  let work: string;
  const records: { message: string; argv?: string[] }[] = [];
  const logger = createLogger({ level: 'debug', console: false, sinks: [{ write: (r) => records.push({ message: r.message, ...(r.fields as object) }) }] });
  const options = (extra: Partial<ConfinementOptions>): ConfinementOptions => ({
    limits,
    root: true,
    group: 'cellar-apps-test',
    runner: new CommandRunner(logger, false),
    logger,
    systemdDir: path.join(work, 'no-systemd'),
    mountsFile: path.join(work, 'mounts'),
    ...extra,
  });

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-limits-'));
    writeFileSync(path.join(work, 'mounts'), '');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('holds nothing without root, and says so', () => {
    expect(backendConfinement(options({ root: false })).state).to.deep.equal({ enforcedBy: null, reason: 'notRoot', ...limits });
  });

  it('holds nothing where no cgroup offers memory, pids and cpu, and says so', () => {
    writeFileSync(path.join(work, 'mounts'), `cgroup2 ${work}/unified cgroup2 rw,relatime 0 0\n`);
    mkdirSync(path.join(work, 'unified'));
    writeFileSync(path.join(work, 'unified', 'cgroup.controllers'), 'hugetlb\n');
    expect(backendConfinement(options({})).state).to.deep.equal({ enforcedBy: null, reason: 'noControllers', ...limits });
  });

  it('starts each run in its own transient scope under cellar-apps.slice where systemd is PID 1', async () => {
    mkdirSync(path.join(work, 'systemd'));
    const confinement = backendConfinement(options({ systemdDir: path.join(work, 'systemd') }));
    expect(confinement.state.enforcedBy).to.equal('systemd');
    const first = await confinement.enter('org.example.hello');
    const unit = /^--unit=cellar-app-org\.example\.hello-([0-9a-z]+)-1\.scope$/;
    expect(first.filter((a) => !unit.test(a))).to.deep.equal([
      'systemd-run',
      '--scope',
      '--quiet',
      '--collect',
      '--slice=cellar-apps.slice',
      `--property=MemoryMax=${limits.memoryBytes}`,
      '--property=TasksMax=32',
      '--property=CPUQuota=150%',
    ]);
    expect(first.filter((a) => unit.test(a))).to.have.length(1);
    const run = unit.exec(first.find((a) => unit.test(a)) ?? '')?.[1];
    expect(await confinement.enter('org.example.hello')).to.include(`--unit=cellar-app-org.example.hello-${run}-2.scope`);
    // Before the app's first scope, those an earlier daemon left are stopped (the runner here only says what it would run).
    expect(records.some((r) => JSON.stringify(r.argv) === JSON.stringify(['systemctl', 'stop', 'cellar-app-org.example.hello-*.scope']))).to.equal(true);
  });

  it('on cgroup v2 enables the controllers on the way down and writes memory.max, pids.max and cpu.max', async () => {
    const root = path.join(work, 'cg2');
    mkdirSync(root);
    writeFileSync(path.join(root, 'cgroup.controllers'), 'cpuset cpu io memory hugetlb pids rdma misc\n');
    writeFileSync(path.join(work, 'mounts'), `cgroup2 ${root} cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n`);
    const confinement = backendConfinement(options({}));
    expect(confinement.state.enforcedBy).to.equal('cgroup2');
    const prefix = await confinement.enter('org.example.hello');
    const dir = path.join(root, 'cellar-apps-test', 'org.example.hello');
    expect(prefix).to.deep.equal(['/bin/sh', cgroupExecProgram, path.join(dir, 'cgroup.procs'), '--']);
    expect(readFileSync(path.join(root, 'cgroup.subtree_control'), 'utf8')).to.equal('+memory +pids +cpu');
    expect(readFileSync(path.join(root, 'cellar-apps-test', 'cgroup.subtree_control'), 'utf8')).to.equal('+memory +pids +cpu');
    expect(readFileSync(path.join(dir, 'memory.max'), 'utf8')).to.equal(String(limits.memoryBytes));
    expect(readFileSync(path.join(dir, 'pids.max'), 'utf8')).to.equal('32');
    expect(readFileSync(path.join(dir, 'cpu.max'), 'utf8')).to.equal('150000 100000');
  });

  it('on cgroup v1 writes the limits into the pids, memory and cpu hierarchies, wherever each is mounted', async () => {
    const mounts = ['pids', 'memory', 'cpu,cpuacct'].map((c) => `cgroup ${work}/${c} cgroup rw,nosuid,nodev,noexec,relatime,${c} 0 0`);
    writeFileSync(path.join(work, 'mounts'), `${mounts.join('\n')}\n`);
    const confinement = backendConfinement(options({}));
    expect(confinement.state.enforcedBy).to.equal('cgroup1');
    const prefix = await confinement.enter('org.example.hello');
    const dir = (c: string) => path.join(work, c, 'cellar-apps-test', 'org.example.hello');
    expect(prefix.slice(2, -1)).to.have.members(['pids', 'memory', 'cpu,cpuacct'].map((c) => path.join(dir(c), 'cgroup.procs')));
    expect(readFileSync(path.join(dir('pids'), 'pids.max'), 'utf8')).to.equal('32');
    expect(readFileSync(path.join(dir('memory'), 'memory.limit_in_bytes'), 'utf8')).to.equal(String(limits.memoryBytes));
    expect(readFileSync(path.join(dir('cpu,cpuacct'), 'cpu.cfs_quota_us'), 'utf8')).to.equal('150000');
    // Nothing in it any more: the group goes (rmdir of a plain folder with files fails, as a cgroup's never does).
    for (const c of ['pids', 'memory', 'cpu,cpuacct']) rmSync(dir(c), { recursive: true });
    await confinement.leave('org.example.hello');
    await confinement.close();
    expect(existsSync(path.join(work, 'pids', 'cellar-apps-test'))).to.equal(false);
  });
  it('runs backends without limits, and says so, where the cgroups are mounted but cannot be written', async () => {
    writeFileSync(path.join(work, 'mounts'), ['pids', 'memory', 'cpu'].map((c) => `cgroup ${work}/${c} cgroup ro,${c} 0 0`).join('\n'));
    // A file where the apps' group would go: mkdir fails as on a read-only cgroup file system.
    for (const c of ['pids', 'memory', 'cpu']) {
      mkdirSync(path.join(work, c));
      writeFileSync(path.join(work, c, 'cellar-apps-test'), '');
    }
    const confinement = backendConfinement(options({}));
    expect(confinement.state.enforcedBy).to.equal('cgroup1');
    expect(await confinement.enter('org.example.hello')).to.deep.equal([]);
    expect(confinement.state).to.deep.include({ enforcedBy: null, reason: 'noControllers' });
    expect(records.some((r) => r.message === 'app backend limits not enforced on this machine')).to.equal(true);
  });
});

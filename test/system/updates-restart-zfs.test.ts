import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { UpdateStatus } from '../../shared/src/api/updates/updates.ts';
import type { TopicEvent } from '../../shared/src/topics.ts';
import { restartExitStatus } from '../../daemon/src/run-daemon.ts';
import { adminCaller, startDaemonProcess, type DaemonProcess } from '../helpers/daemon-process.ts';
import { connectSocket } from '../helpers/socket.ts';
import { buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';
import { UpdateRoot } from './update-root-fixture.ts';

const unit = path.join(import.meta.dirname, '../../build/debian/cellar.service');

/**
 * The restart after the daemon's own package changed, in a process of its own run the way main.ts
 * runs it (update-daemon-child.ts): the install job tells the desktops on `system/updates`, and the
 * process exits 75, which the unit turns into a restart (RestartForceExitStatus=75). Started again
 * from the same data directory, as systemd would, it reports the new version and the job that
 * finished. systemd itself cannot run the unit here: it is not PID 1 (systemd-run has no manager to
 * talk to) and `systemd --user` exits at once without a session bus; so the unit is checked with
 * `systemd-analyze verify`. Needs root, zfs-fuse and mmdebstrap.
 */
describe('updates: the daemon exits 75 for systemd once its install changed its own package', function () {
  this.timeout(10 * 60 * 1000);
  let r: UpdateRoot;
  let signer: TestSigner;
  let channel: { url: string; server: Server } | null = null;
  let dataDir: string;
  let daemon: DaemonProcess | null = null;
  let jobId: number;

  const start = () =>
    startDaemonProcess({
      argv: ['--import', 'tsx', path.join(import.meta.dirname, 'update-daemon-child.ts')],
      dataDir,
      env: {
        BOX_TRUSTED_KEYS: signer.keyFile,
        CELLAR_TEST_UPDATES: JSON.stringify({ apply: true, root: r.root, systemDatasets: [r.dataset], channelUrl: channel!.url }),
      },
    });

  before(async () => {
    r = await UpdateRoot.create('updr');
    const build = path.join(r.disks.work, 'build');
    signer = new TestSigner(r.disks.work);
    r.dpkgInstall([buildDeb(build, { name: 'cellar', version: '1.0' })]);
    const box11 = buildDeb(build, { name: 'cellar', version: '1.1' });
    writeRelease(path.join(r.disks.work, 'channels/stable'), signer, indexFor('1.1', [{ file: box11, architecture: 'all' }]), [box11]);
    channel = await serveFolder(path.join(r.disks.work, 'channels'));
    dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-restart-'));
  });
  after(async () => {
    await daemon?.close();
    channel?.server.close();
    await r?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('tells the desktops it restarts, ends the job, closes their connections and exits 75', async () => {
    daemon = await start();
    const call = await adminCaller(daemon.base);
    const checked = (await (await call('POST', '/api/system/updates/check')).json()) as UpdateStatus;
    expect(checked.lastCheck?.available?.version).to.equal('1.1');
    const socket = await connectSocket(daemon.base, null, { cookie: call.headers().Cookie });
    expect((await socket.subscribe('system/updates')).ok).to.equal(true);

    const answer = await call('POST', '/api/system/updates/install', { box: 'channel', distribution: false });
    expect(answer.status).to.equal(202);
    jobId = ((await answer.json()) as Job).id;
    // Read from everything the socket received: events that arrive together (one polling payload)
    // are emitted in one go, so waiting for one event after another can miss the second.
    const restartingEvent = () => socket.events.find((e: TopicEvent) => e.topic === 'system/updates' && e.type === 'restarting');
    for (const deadline = Date.now() + 120_000; !restartingEvent() && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(restartingEvent()?.data).to.deep.equal({ reason: 'package' });
    expect(await socket.waitForDisconnect(30_000)).to.equal('io server disconnect');
    expect(await daemon.exited, daemon.stderr()).to.equal(restartExitStatus);
    expect(r.installed('cellar')).to.equal('1.1');
  });

  it('started again from the same data directory, as systemd does, reports the new version and the finished job', async () => {
    daemon = await start();
    const call = await adminCaller(daemon.base);
    const status = (await (await call('GET', '/api/system/updates')).json()) as UpdateStatus;
    expect(status.installed.version).to.equal('1.1');
    expect(status.running).to.equal(null);
    expect(status.history[0]).to.deep.include({ kind: 'install', state: 'succeeded', fromVersion: '1.0', toVersion: '1.1', jobId });
    const job = (await (await call('GET', `/api/jobs/${jobId}`)).json()) as Job;
    expect(job.state).to.equal('succeeded');
  });

  it('has a unit systemd accepts without a warning, restarting on exit status 75', () => {
    const text = readFileSync(unit, 'utf8');
    for (const line of ['Restart=on-failure', `RestartForceExitStatus=${restartExitStatus}`, `SuccessExitStatus=${restartExitStatus}`])
      expect(text).to.include(`\n${line}\n`);
    // A root with systemd's own units and an executable where ExecStart points: verify resolves both inside it.
    const root = path.join(r.disks.work, 'unit-root');
    mkdirSync(path.join(root, 'lib/systemd'), { recursive: true });
    cpSync('/lib/systemd/system', path.join(root, 'lib/systemd/system'), { recursive: true, verbatimSymlinks: true });
    cpSync(unit, path.join(root, 'lib/systemd/system/cellar.service'));
    const node = path.join(root, 'usr/lib/cellar/node/bin/node');
    mkdirSync(path.dirname(node), { recursive: true });
    writeFileSync(node, '#!/bin/sh\n');
    chmodSync(node, 0o755);
    // verify answers 0 even when it ignores a line it cannot parse: only silence is a pass.
    const verify = spawnSync('systemd-analyze', ['verify', `--root=${root}`, '/lib/systemd/system/cellar.service'], { encoding: 'utf8' });
    expect(verify.status, verify.stderr).to.equal(0);
    expect(verify.stdout + verify.stderr).to.equal('');
  });
});

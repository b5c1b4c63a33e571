import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { BackupSummary, RestoreResult } from '../../shared/src/api/backup/backup.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { HealthResponse } from '../../shared/src/api/system/system.ts';
import type { UpdateStatus } from '../../shared/src/api/updates/updates.ts';
import { debianArchitecture } from '../../daemon/src/areas/updates/signed-release.ts';
import { packageDeb } from '../../build/scripts/package-deb.js';
import { freePort } from '../../bench/lib/free-port.ts';
import { httpsClient } from '../helpers/https-client.ts';
import { buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';
import { expectCleanBoot, fetchInsecure, guestPort, minute, onDisk, readJournal, sleep, until } from './guest.ts';
import { Vm } from './qemu.ts';

/**
 * Updates and a restore on the installed boxes of installer-vm.test.ts (issue 28), registered
 * inside its suite so they use its disks: the box installed by the console's client (`boxDisk`,
 * its pool's disk beside it) and the box installed by the wizard (`secondDisk`), both fresh.
 *
 * The update: a newer build of the same code (package-deb.js with a bumped version) from a
 * signed channel that the test serves on this machine's loopback; the guest reaches it, and
 * nothing else, at 10.0.2.100:8080 through QEMU's guestfwd. Then an update whose package fails
 * in its preinst. The boxes are ext4 (zfs-fuse is no root file system): no snapshot is taken
 * (docs/updates.md), and the failed update is undone by dpkg itself, before it unpacked anything.
 */

export interface InstalledBoxes {
  work: string;
  boxDisk: string;
  dataDisk: string;
  /** The root the installation handed over for each box (PEM). */
  boxRoot: string;
  secondDisk: string;
  secondRoot: string;
  password: string;
  saved: string[];
  log(line: string): void;
  /** The machine now running and its disk: killed, and its journal read, after a failure. */
  using(vm: Vm, disk: string): void;
}

/** Where the guest finds the channel: the address QEMU's guestfwd carries to the host's loopback. */
const channelInGuest = 'http://10.0.2.100:8080/';
const relay = path.join(import.meta.dirname, 'guest-relay.js');
const baseVersion = (JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
const newer = `${baseVersion}+vm1`;
const failing = `${baseVersion}+vm2`;
const newPassword = 'the owner password 2';
const backupPassword = 'the backup password 1';

export function updatesAndRestore(boxes: () => InstalledBoxes): void {
  /** The first box's backup, downloaded as the owner keeps it. */
  const backupFile = (b: InstalledBoxes) => path.join(b.work, 'first-box.cellar-backup');
  const seconds = (since: number) => Math.round((Date.now() - since) / 1000);

  /** Boots a disk and answers its HTTPS origin once the daemon answers there (with `version`, when given). */
  async function boot(b: InstalledBoxes, name: string, disks: string[], extra: Partial<ConstructorParameters<typeof Vm>[0]> = {}) {
    const port = await freePort();
    const vm = new Vm({ name, dir: b.work, firmware: 'bios', disks, hostPort: port, guestPort, ...extra });
    b.using(vm, disks[0]!);
    b.saved.push(vm.serialLog);
    const url = `https://127.0.0.1:${port}`;
    await until('the box over HTTPS', 20 * minute, async () => ((await fetchInsecure(`${url}/api/health`))?.status === 200 ? true : null), vm);
    return { vm, url };
  }

  const health = async (url: string) => {
    const answer = await fetchInsecure(`${url}/api/health`);
    return answer?.status === 200 ? (JSON.parse(answer.body) as HealthResponse) : null;
  };

  /** Shuts the box down through its API, waits for QEMU to end and checks the journal of that boot. */
  async function shutDown(b: InstalledBoxes, vm: Vm, disk: string, send: ReturnType<typeof httpsClient>['send'], label: string) {
    const power = await send('POST', '/api/system/power', { action: 'shutdown' });
    expect(power.status, power.body).to.equal(202);
    await vm.waitExit(10 * minute);
    expectCleanBoot(readJournal(b.work, disk, label, b.saved));
  }

  it('installs a newer build of the package from a signed channel on the host’s loopback (guestfwd), and a failing one leaves the box on the version before', async () => {
    const b = boxes();
    const started = Date.now();
    const channels = path.join(b.work, 'channels');
    const signer = new TestSigner(mkdtempSync(path.join(b.work, 'channel-key-')), 'vm-test-channel');
    const arch = debianArchitecture();
    const build = path.join(b.work, 'update-build');
    const deb = await packageDeb({ outDir: build, version: newer });
    writeRelease(path.join(channels, 'stable'), signer, indexFor(newer, [{ file: deb, architecture: arch }]), [deb]);
    b.log(`update: the package ${newer} built after ${seconds(started)} s`);
    // As the owner does on the box (root): the channel and its key in the root-owned configuration file.
    onDisk(
      b.work,
      b.boxDisk,
      'channel-config',
      (mnt) => {
        const config = path.join(mnt, 'etc/cellar/cellar.json');
        const current = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
        writeFileSync(config, JSON.stringify({ ...current, updateChannelUrl: channelInGuest, updateKeysFile: '/etc/cellar/update-keys.json' }, null, 2));
        writeFileSync(path.join(mnt, 'etc/cellar/update-keys.json'), readFileSync(signer.keyFile), { mode: 0o644 });
      },
      true,
    );
    const channel: { url: string; server: Server } = await serveFolder(channels);
    try {
      const port = new URL(channel.url).port;
      const { vm, url } = await boot(b, 'box-update', [b.boxDisk, b.dataDisk], {
        guestfwd: { address: '10.0.2.100', port: 8080, command: [process.execPath, relay, port] },
      });
      b.log(`update: the box answered after ${seconds(started)} s`);
      let client = httpsClient(url, b.boxRoot);
      expect((await client.signIn('owner', b.password)).status).to.equal(200);
      const before = JSON.parse((await client.send('GET', '/api/system/updates')).body) as UpdateStatus;
      expect(before).to.deep.include({ applies: true, notApplicable: null, systemDatasets: [] });
      expect(before.installed.version).to.equal(baseVersion);

      // The check reads the channel (apt's own lists fail: the guest reaches nothing else), then the install takes its version.
      const offered = async (version: string) => {
        const check = await client.send('POST', '/api/system/updates/check');
        expect(check.status, check.body).to.equal(200);
        expect((JSON.parse(check.body) as UpdateStatus).lastCheck?.available, check.body).to.include({ version });
      };
      await offered(newer);
      const install = await client.send('POST', '/api/system/updates/install', { box: 'channel', distribution: false });
      expect(install.status, install.body).to.equal(202);
      // The daemon restarts from the new files once the job ended: its health then names the new version.
      await until('the new version', 20 * minute, async () => ((await health(url))?.version === newer ? true : null), vm);
      b.log(`update: ${newer} running after ${seconds(started)} s`);
      client.close();
      client = httpsClient(url, b.boxRoot);
      expect((await client.signIn('owner', b.password)).status).to.equal(200);
      const after = JSON.parse((await client.send('GET', '/api/system/updates')).body) as UpdateStatus;
      expect(after.installed.version).to.equal(newer);
      // An ext4 system: nothing to snapshot, and the history says so (snapshot null).
      expect(after.history[0]).to.deep.include({
        kind: 'install',
        state: 'succeeded',
        fromVersion: baseVersion,
        toVersion: newer,
        snapshot: null,
        returned: false,
      });

      // A newer version whose package refuses to install: dpkg stops before unpacking and keeps the one installed.
      const bad = buildDeb(build, { name: 'cellar', version: failing, architecture: arch, preinst: 'echo "this update refuses to install" >&2\nexit 1' });
      writeRelease(path.join(channels, 'stable'), signer, indexFor(failing, [{ file: bad, architecture: arch }]), [bad]);
      await offered(failing);
      const failed = await client.send('POST', '/api/system/updates/install', { box: 'channel', distribution: false });
      expect(failed.status, failed.body).to.equal(202);
      const jobId = (JSON.parse(failed.body) as Job).id;
      const job = await until(
        'the failed update’s end',
        10 * minute,
        async () => {
          const j = JSON.parse((await client.send('GET', `/api/jobs/${jobId}`)).body) as Job;
          return j.state === 'queued' || j.state === 'running' ? null : j;
        },
        vm,
      );
      expect(job.state).to.equal('failed');
      expect(job.error?.code).to.equal('system.update.failed');
      const kept = JSON.parse((await client.send('GET', '/api/system/updates')).body) as UpdateStatus;
      expect(kept.installed.version).to.equal(newer);
      expect(kept.history[0]).to.deep.include({ state: 'failed', fromVersion: newer, toVersion: null, snapshot: null, returned: false });
      expect(kept.history[0]!.error).to.match(/^box: /);
      expect((await health(url))?.version).to.equal(newer);
      b.log(`update: the failing one refused after ${seconds(started)} s`);

      // The configuration backup for the next test, made after the administrator's password changed.
      const changed = await client.send('PUT', '/api/auth/password', { currentPassword: b.password, newPassword });
      expect(changed.status, changed.body).to.equal(204);
      const file = await client.send('POST', '/api/system/backup', { password: backupPassword });
      expect(file.status, file.body).to.equal(200);
      expect(file.bytes.subarray(0, 8).toString('latin1')).to.equal('CELLARBK');
      writeFileSync(backupFile(b), file.bytes);
      await shutDown(b, vm, b.boxDisk, client.send, 'box-update');
      client.close();
    } finally {
      channel.server.close();
    }
    // What dpkg itself recorded on the disk: the newer build installed and configured.
    const status = onDisk(b.work, b.boxDisk, 'dpkg-status', (mnt) => readFileSync(path.join(mnt, 'var/lib/dpkg/status'), 'utf8'));
    const cellar = status.split('\n\n').find((s) => s.startsWith('Package: cellar\n'));
    expect(cellar).to.match(new RegExp(`^Version: ${newer.replace(/[.+]/g, '\\$&')}$`, 'm'));
    expect(cellar).to.match(/^Status: install ok installed$/m);
    b.log(`update: done after ${seconds(started)} s`);
  });

  it('restores the first box’s configuration backup onto the box the wizard installed: the administrator signs in there with the first box’s password', async () => {
    const b = boxes();
    const backup = readFileSync(backupFile(b));
    const started = Date.now();
    const { vm, url } = await boot(b, 'box-restore', [b.secondDisk]);
    b.log(`restore: the second box answered after ${seconds(started)} s`);
    const own = httpsClient(url, b.secondRoot);
    expect((await own.signIn('owner', b.password)).status).to.equal(200);
    const inspected = await own.send('POST', '/api/system/backup/inspect', { password: backupPassword, backup: backup.toString('base64') });
    expect(inspected.status, inspected.body).to.equal(200);
    const summary = JSON.parse(inspected.body) as BackupSummary;
    // The first box: its host name (made from its name) and the version the update brought.
    expect(summary.box).to.deep.equal({ name: 'vm-box', version: newer });
    const parts = summary.parts.map((p) => p.name);
    const restore = await own.send('POST', '/api/system/backup/restore', { backupId: summary.backupId, parts });
    expect(restore.status, restore.body).to.equal(200);
    const result = JSON.parse(restore.body) as RestoreResult;
    expect(result).to.deep.include({ hostFailed: [], signedOut: true });
    expect(result.restored).to.have.members(parts);
    // The first box's pool is not here: its share is named, not made.
    expect(result.sharesWithoutDataset.map((s) => s.name)).to.deep.equal(['VmData']);
    own.close();
    // The restored authority may issue the box's certificate at the daemon's restart: either root is this box's now.
    const restored = httpsClient(url, `${b.secondRoot}\n${b.boxRoot}`);
    await sleep(3000);
    const signIn = await until(
      'the sign-in with the first box’s password',
      5 * minute,
      async () => {
        const answer = await restored.signIn('owner', newPassword);
        return answer.status === 200 ? answer : null;
      },
      vm,
    );
    expect(signIn.status).to.equal(200);
    expect(JSON.parse((await restored.send('GET', '/api/setup')).body)).to.include({ boxName: 'VM Box' });
    b.log(`restore: signed in with the first box’s password after ${seconds(started)} s`);
    // The second box's own password, made by its wizard, went with the restored users.
    const old = httpsClient(url, `${b.secondRoot}\n${b.boxRoot}`);
    const refused = await old.signIn('owner', b.password);
    expect(refused.status).to.equal(401);
    expect(JSON.parse(refused.body)).to.include({ code: 'auth.credentials.invalid' });
    old.close();
    await shutDown(b, vm, b.secondDisk, restored.send, 'box-restore');
    restored.close();
  });
}

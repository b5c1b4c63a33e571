import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { claimHeader, type InstallerStatus, type InstallRequest } from '../../shared/src/api/installer/installer.ts';
import { systemTestImage, InstallerDisks } from '../helpers/installer-disks.ts';
import { expectBiosLoader } from '../helpers/bios-loader.ts';
import { expectOwnerAccount } from '../helpers/target-accounts.ts';
import { httpsClient } from '../helpers/https-client.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const mib = 1024 * 1024;
const password = 'the owner password 1';

/** The install request of these tests onto `disk` (a loop device's name). */
const installOnto = (disk: string, network: InstallRequest['network'] = null): InstallRequest => ({
  disk,
  fileSystem: 'ext4',
  boxName: 'Test Box',
  admin: { username: 'owner', password },
  language: 'de',
  region: 'AT',
  timeZone: 'Europe/Vienna',
  network,
});

async function waitInstalled(c: TestClient, headers: Record<string, string>): Promise<InstallerStatus> {
  for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline;) {
    // The installation builds the box's daemon in this process: a poll may meet a keep-alive socket the server just closed.
    const status = await c.api.installer.status({ headers }).catch((err: unknown) => (err instanceof TypeError ? null : Promise.reject(err)));
    if (status && status.state !== 'installing') return status;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the installation did not end');
}

describe('installer: install onto loop devices (root)', function () {
  this.timeout(15 * 60_000);
  let disks: InstallerDisks;
  let box: TestDaemon | undefined;
  let installed: TestDaemon | undefined;
  let target: string;
  let formatted: string;
  let small: string;
  let headers: Record<string, string>;

  before(async () => {
    disks = new InstallerDisks();
    target = disks.add('1G');
    formatted = disks.add('1G');
    small = disks.add('64M');
    sh(['mkfs.ext4', '-q', formatted]);
    box = await startTestDaemon(
      { mode: 'installer', installerImage: systemTestImage(), dataDir: path.join(disks.work, 'data') },
      { installer: { apply: true, reboot: false, mdns: false, includeLoopDevices: true, minDiskBytes: 512 * mib } },
    );
    headers = { [claimHeader]: (await box.client().api.installer.claim()).claimSecret! };
  });
  after(async () => {
    await installed?.close({ keepData: true });
    await box?.close({ keepData: true });
    disks?.cleanup();
  });

  /** The install's refusal while PATH is only `bin`: the missing program it names. */
  const refusedWithPath = async (bin: string) => {
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const refused = await expectProblem(box!.client().api.installer.install({ body: installOnto(path.basename(target)), headers }), 'host.tool.missing', 503);
      return refused.problem.params;
    } finally {
      process.env.PATH = saved;
    }
  };

  it('refuses to install on a medium without udev (grub-install needs it), naming the package', async () => {
    const empty = path.join(disks.work, 'empty-bin');
    mkdirSync(empty);
    expect(await refusedWithPath(empty)).to.deep.include({ tool: 'udevadm', package: 'udev' });
  });

  it('refuses a medium without grub-install before touching the disk, naming grub2-common', async () => {
    // Every program of this machine but grub-install: the plan's other commands are all there.
    const bin = path.join(disks.work, 'bin-without-grub-install');
    mkdirSync(bin);
    for (const dir of ['/usr/sbin', '/usr/bin'])
      for (const name of readdirSync(dir))
        if (name !== 'grub-install' && !existsSync(path.join(bin, name))) symlinkSync(path.join(dir, name), path.join(bin, name));
    const before = sh(['wipefs', '--no-act', target]);
    expect(await refusedWithPath(bin)).to.deep.include({ tool: 'grub-install', package: 'grub2-common' });
    expect(sh(['wipefs', '--no-act', target])).to.equal(before);
    expect((await box!.client().api.installer.status({ headers })).state).to.not.equal('installing');
  });

  it('judges the loop devices with the disk guard and refuses a disk it refuses', async () => {
    const c = box!.client();
    const options = await c.api.installer.options({ headers });
    const byPath = new Map(options.disks.map((d) => [d.path, d]));
    expect(byPath.get(target)).to.deep.include({ usable: true, reasons: [] });
    expect(byPath.get(formatted)?.usable).to.equal(false);
    expect(byPath.get(formatted)?.reasons.map((r) => r.reason)).to.include('signature');
    expect(byPath.get(small)?.reasons.map((r) => r.reason)).to.deep.equal(['tooSmall']);
    const refused = await expectProblem(
      c.api.installer.install({
        body: installOnto(path.basename(formatted)),
        headers,
      }),
      'installer.disk.refused',
      409,
    );
    expect(refused.problem.params?.disk).to.equal(path.basename(formatted));
    // Nothing touched the refused disk.
    expect(sh(['blkid', '-o', 'value', '-s', 'TYPE', formatted]).trim()).to.equal('ext4');
  });

  it('partitions, writes the image, the configuration and the UEFI and BIOS boot loaders; the installed configuration serves the install id', async () => {
    const c = box!.client();
    const body = installOnto(path.basename(target), {
      interface: 'eth0',
      method: 'static',
      address: '192.0.2.10/24',
      gateway: '192.0.2.1',
      nameservers: ['192.0.2.1'],
    });
    const started = await c.api.installer.install({ body, headers });
    expect(started.state).to.equal('installing');
    const commands = started.plan!.commands.map((argv) => argv.join(' '));
    expect(commands[0]).to.equal(`wipefs -a ${target}`);
    expect(commands).to.include(`mkfs.ext4 -F -q -L cellar-system ${target}p3`);
    expect(commands).to.include(`mkfs.vfat -F 32 -n EFI ${target}p2`);
    expect(commands.some((x) => x.startsWith('grub-mkimage -O x86_64-efi'))).to.equal(true);
    expect(commands).to.include(`mcopy -i ${target}p2 ${path.join(disks.work, 'data/efi-image/BOOTX64.EFI')} ::/EFI/BOOT/BOOTX64.EFI`);
    await expectProblem(c.api.installer.install({ body, headers }), 'installer.install.running', 409);

    const done = await waitInstalled(c, headers);
    expect(done.failure, JSON.stringify(done.failure)).to.equal(null);
    expect(done.state).to.equal('done');
    expect(done.progress).to.deep.include({ done: done.progress!.total, step: 'Done' });
    // The installed box's root, for the console to pin: a constrained CA certificate, and its fingerprint.
    const installedRoot = new X509Certificate(done.installedRoot!.certificate);
    expect(installedRoot.ca).to.equal(true);
    expect(done.installedRoot!.sha256Fingerprint).to.equal(installedRoot.fingerprint256);
    // A root is public (the installed box serves it to anyone); what counts is that the console reads it over its pinned connection.
    expect((await c.api.installer.status()).installedRoot).to.deep.equal(done.installedRoot);

    // Partitions and file systems as planned, nothing left mounted.
    expect(sh(['sgdisk', '-p', target])).to.match(/EF02[\s\S]*EF00[\s\S]*8300/);
    expect(sh(['blkid', '-o', 'value', '-s', 'TYPE', `${target}p2`]).trim()).to.equal('vfat');
    expect(sh(['blkid', '-o', 'value', '-s', 'TYPE', `${target}p3`]).trim()).to.equal('ext4');
    expect(readFileSync('/proc/mounts', 'utf8')).to.not.contain(path.join(disks.work, 'data/target'));

    const root = disks.mount(`${target}p3`, 'root');
    // The image's files.
    expect(readFileSync(path.join(root, 'etc/os-release'), 'utf8')).to.contain('bookworm');
    expect(existsSync(path.join(root, 'usr/bin/dpkg'))).to.equal(true);
    // The configuration.
    const rootUuid = sh(['blkid', '-o', 'value', '-s', 'UUID', `${target}p3`]).trim();
    expect(readFileSync(path.join(root, 'etc/fstab'), 'utf8')).to.contain(`UUID=${rootUuid} / ext4`);
    expect(readFileSync(path.join(root, 'etc/hostname'), 'utf8')).to.equal('test-box\n');
    expect(readlinkSync(path.join(root, 'etc/localtime'))).to.equal('../usr/share/zoneinfo/Europe/Vienna');
    expect(readFileSync(path.join(root, 'etc/systemd/network/10-cellar.network'), 'utf8')).to.contain('Address=192.0.2.10/24');
    // ...and systemd-networkd enabled to apply it at the first boot (issue 36 point 1).
    expect(readlinkSync(path.join(root, 'etc/systemd/system/multi-user.target.wants/systemd-networkd.service'))).to.equal(
      '/lib/systemd/system/systemd-networkd.service',
    );
    // The boot loader: GRUB's configuration and the removable EFI loader.
    expect(readFileSync(path.join(root, 'boot/grub/grub.cfg'), 'utf8')).to.contain(`root=UUID=${rootUuid}`);
    // The EFI partition read with mtools, as the installer wrote it (this kernel has no FAT driver).
    expect(sh(['mdir', '-b', '-i', `${target}p2`, '::/EFI/BOOT'])).to.contain('BOOTX64.EFI');
    expect(Number(sh(['mdu', '-i', `${target}p2`, '::/EFI/BOOT/BOOTX64.EFI']).match(/(\d+)/)?.[1])).to.be.greaterThan(0);
    // The BIOS loader: GRUB's boot.img in the disk's first sector, pointing at core.img in the BIOS boot partition.
    expectBiosLoader(target, `${target}p1`, root);

    // The box's own daemon on the installed configuration: its install id, box name, region and the first administrator.
    installed = await startTestDaemon({ dataDir: path.join(root, 'var/lib/cellar') });
    const fresh = installed.client();
    const id = await fresh.api.installer.installId();
    expect(id.installId).to.match(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(readFileSync(path.join(root, 'var/lib/cellar/install-id'), 'utf8'))).to.deep.equal(id);
    expect(await fresh.api.system.setup()).to.deep.include({ boxName: 'Test Box', language: 'de', region: 'AT', installer: false, setupCode: false });
    const owner = await installed.signIn('owner', password);
    expect(owner.user).to.include({ username: 'owner', admin: true });
    // The owner is a system account of the installed box too, under the uid its database gave.
    const summary = (await owner.api.users.list()).find((u) => u.username === 'owner')!;
    expect(summary.uid).to.be.within(20000, 29999);
    expectOwnerAccount(root, summary, password);
    await installed.close({ keepData: true });
    installed = undefined;

    // Started as the box starts (HTTPS), the daemon serves a certificate that chains to the root the console got: no second comparison.
    installed = await startTestDaemon(
      { dataDir: path.join(root, 'var/lib/cellar'), https: true },
      { tls: { host: () => ({ hostname: 'test-box', addresses: ['127.0.0.1'] }) } },
    );
    const pinned = httpsClient(installed.url, done.installedRoot!.certificate);
    try {
      const served = await pinned.send('GET', '/api/system/tls/root-ca.crt');
      expect(served.status).to.equal(200);
      expect(new X509Certificate(served.body).fingerprint256).to.equal(done.installedRoot!.sha256Fingerprint);
      expect((await pinned.signIn('owner', password)).status).to.equal(200);
    } finally {
      pinned.close();
    }
    await installed.close({ keepData: true });
    installed = undefined;
  });
});

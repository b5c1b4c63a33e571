import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { claimHeader, type InstallRequest } from '../../shared/src/api/installer/installer.ts';
import { InstallerDisks } from '../helpers/installer-disks.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

const mib = 1024 * 1024;

/**
 * Two install requests at once: the checks before an installation starts wait on the host (udev,
 * the disk guard's lsblk, the image, the zone), and only one request may get past them. The
 * installer only logs its commands here: the loop device is there for the disk guard to allow.
 */
describe('installer: two install requests at once (root)', function () {
  this.timeout(120_000);
  let disks: InstallerDisks;
  let box: TestDaemon | undefined;

  before(async () => {
    disks = new InstallerDisks();
    const image = path.join(disks.work, 'system.tar');
    writeFileSync(image, '');
    box = await startTestDaemon(
      { mode: 'installer', installerImage: image, dataDir: path.join(disks.work, 'data') },
      { installer: { apply: false, reboot: false, mdns: false, includeLoopDevices: true, minDiskBytes: 64 * mib } },
    );
  });
  after(async () => {
    await box?.close();
    disks?.cleanup();
  });

  it('starts one installation and refuses the other with installer.install.running', async () => {
    const target = disks.add('128M');
    const c = box!.client();
    const headers = { [claimHeader]: (await c.api.installer.claim()).claimSecret! };
    const body: InstallRequest = {
      disk: path.basename(target),
      fileSystem: 'ext4',
      boxName: 'Race box',
      admin: { username: 'owner', password: 'the owner password 1' },
      language: 'en',
      region: 'DE',
      timeZone: 'Europe/Berlin',
      network: null,
    };
    const answers = await Promise.all([1, 2].map(() => c.request('POST', '/api/installer/install', { body, headers })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).to.deep.equal([202, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(((await refused.json()) as { code: string }).code).to.equal('installer.install.running');
  });
});

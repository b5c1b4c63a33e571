import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { fstab, grubConfig, hostNameOf, networkFile, writeSystemFiles, type SystemFilesInput } from './system-files.ts';

const input: SystemFilesInput = { fileSystem: 'ext4', hostName: 'box', timeZone: 'UTC', systemUuid: 'aaaa-1', efiUuid: 'BBBB-2', network: null };

describe('installed system files', () => {
  it('makes a host name of any box name', () => {
    expect(hostNameOf('Müller’s NAS #2')).to.equal('muller-s-nas-2');
    expect(hostNameOf('!!!')).to.equal('cellar');
    expect(hostNameOf('x'.repeat(80))).to.have.length(63);
  });

  it('mounts the system by UUID for ext4 and leaves a ZFS root to the pool', () => {
    expect(fstab(input)).to.contain('UUID=aaaa-1 / ext4').and.contain('UUID=BBBB-2 /boot/efi vfat');
    expect(fstab({ ...input, fileSystem: 'zfs', systemUuid: null })).to.not.contain(' / ');
    expect(grubConfig(input)).to.contain('root=UUID=aaaa-1');
    expect(grubConfig({ ...input, fileSystem: 'zfs' })).to.contain('root=ZFS=cellar-system');
  });

  it('starts the kernel with the serial console beside the screen, the screen last so it stays /dev/console', () => {
    const linux = grubConfig(input)
      .split('\n')
      .find((line) => line.trim().startsWith('linux '));
    expect(
      linux
        ?.trim()
        .split(/\s+/)
        .filter((word) => word.startsWith('console=')),
    ).to.deep.equal(['console=ttyS0,115200', 'console=tty0']);
  });

  it('writes the tested network, or DHCP on every card', () => {
    expect(networkFile(null)).to.contain('Name=en* eth*').and.contain('DHCP=yes');
    const file = networkFile({ interface: 'eth0', method: 'static', address: '192.0.2.5/24', gateway: '192.0.2.1', nameservers: ['192.0.2.53'] });
    expect(file).to.contain('Address=192.0.2.5/24').and.contain('Gateway=192.0.2.1').and.contain('DNS=192.0.2.53');
  });

  it('enables systemd-networkd in the installed system as systemctl enable does, so the box applies its network file, and takes the image’s SSH host keys out', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'cellar-system-files-'));
    try {
      const root = path.join(work, 'root');
      const staging = path.join(work, 'efi');
      // The install steps make the EFI loader's staging folder before this step.
      mkdirSync(staging);
      // The image's host keys (as mmdebstrap's openssh-server made them) are taken out; sshd's other files stay.
      mkdirSync(path.join(root, 'etc/ssh'), { recursive: true });
      for (const name of ['ssh_host_ed25519_key', 'ssh_host_ed25519_key.pub', 'ssh_host_rsa_key', 'sshd_config'])
        writeFileSync(path.join(root, 'etc/ssh', name), 'x');
      await writeSystemFiles(root, staging, input);
      expect(readdirSync(path.join(root, 'etc/ssh'))).to.deep.equal(['sshd_config']);
      const link = (rel: string) => readlinkSync(path.join(root, 'etc/systemd/system', rel));
      expect(link('multi-user.target.wants/systemd-networkd.service')).to.equal('/lib/systemd/system/systemd-networkd.service');
      expect(link('sockets.target.wants/systemd-networkd.socket')).to.equal('/lib/systemd/system/systemd-networkd.socket');
      expect(link('network-online.target.wants/systemd-networkd-wait-online.service')).to.equal('/lib/systemd/system/systemd-networkd-wait-online.service');
      // Writing twice (an install tried again) keeps one link each; no key of the image stays either time.
      await writeSystemFiles(root, staging, input);
      expect(link('dbus-org.freedesktop.network1.service')).to.equal('/lib/systemd/system/systemd-networkd.service');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

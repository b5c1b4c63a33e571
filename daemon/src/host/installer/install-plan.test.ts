import { expect } from 'chai';
import { installSteps, partitionPath, planOf, targetLayout } from './install-plan.ts';

describe('install plan', () => {
  it('names partitions as the kernel does', () => {
    expect(partitionPath('/dev/sda', 3)).to.equal('/dev/sda3');
    expect(partitionPath('/dev/nvme0n1', 2)).to.equal('/dev/nvme0n1p2');
    expect(partitionPath('/dev/loop4', 1)).to.equal('/dev/loop4p1');
  });

  it('lists the exact commands of an ext4 system in order, ending with nothing mounted', () => {
    const layout = targetLayout('/dev/sdb', '/run/cellar-installer/target');
    const plan = planOf(layout, 'ext4', installSteps(layout, 'ext4', '/usr/lib/cellar/system-image.tar'));
    const programs = plan.commands.map((argv) => argv[0]);
    expect(programs).to.deep.equal([
      'wipefs',
      'sgdisk',
      'sgdisk',
      'partx',
      'mkfs.vfat',
      'mkfs.ext4',
      'mount',
      'tar',
      'ssh-keygen',
      'grub-mkimage',
      'mmd',
      'mcopy',
      'grub-install',
      'umount',
    ]);
    expect(plan.commands).to.deep.include(['grub-install', '--target=i386-pc', '--boot-directory=/run/cellar-installer/target/boot', '/dev/sdb']);
    expect(plan.commands).to.deep.include(['mkfs.ext4', '-F', '-q', '-L', 'cellar-system', '/dev/sdb3']);
    expect(plan.commands.at(-1)).to.deep.equal(['umount', '/run/cellar-installer/target']);
    expect(plan.files).to.include('/var/lib/cellar/install-id');
    // The box's own SSH host keys, made after the configuration took the image's out.
    expect(plan.commands).to.deep.include(['ssh-keygen', '-A', '-f', '/run/cellar-installer/target']);
    expect(plan.files).to.include('/etc/ssh/ssh_host_ed25519_key');
  });

  it('makes a ZFS system pool below the target and exports it at the end', () => {
    const layout = targetLayout('/dev/sdb', '/t');
    const plan = planOf(layout, 'zfs', installSteps(layout, 'zfs', '/image.tar'));
    expect(plan.commands).to.deep.include(['zpool', 'create', '-f', '-R', '/t', '-O', 'mountpoint=/', '-O', 'compression=lz4', 'cellar-system', '/dev/sdb3']);
    // The data directory is its own dataset, so an update's rollback of the root leaves it (system.updates.data_in_system otherwise).
    expect(plan.commands).to.deep.include(['zfs', 'create', '-o', 'mountpoint=/var/lib/cellar', 'cellar-system/data']);
    expect(plan.commands.some((argv) => argv[0] === 'mkfs.ext4' || argv[0] === 'mount')).to.equal(false);
    expect(plan.commands.at(-1)).to.deep.equal(['zpool', 'export', 'cellar-system']);
  });
});

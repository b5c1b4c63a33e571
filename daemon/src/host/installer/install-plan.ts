import path from 'node:path';
import type { InstallPlan, SystemFileSystem } from '../../../../shared/src/api/installer/installer.ts';

/** The system pool's name when the system file system is ZFS. */
export const systemPool = 'cellar-system';

/** What a step does besides running a command: the installer's own writes at their place in the order. */
export type InstallAction = 'configure';

export interface InstallStep {
  label: string;
  argv?: string[];
  action?: InstallAction;
}

export interface TargetLayout {
  disk: string;
  efi: string;
  system: string;
  /** Where the system file system is mounted while the installer writes it. */
  target: string;
  /** The installer's own folder for the EFI loader before it goes onto the EFI system partition. */
  efiStaging: string;
}

/** GRUB's configuration built into the EFI loader: it finds the system by UUID and reads /boot/grub/grub.cfg there. */
export const efiEarlyConfig = 'early.cfg';
/** What the EFI loader needs built in to reach grub.cfg and boot Linux without reading modules from disk. */
const efiModules = [
  'part_gpt',
  'part_msdos',
  'fat',
  'ext2',
  'zfs',
  'search',
  'search_fs_uuid',
  'search_label',
  'configfile',
  'normal',
  'linux',
  'echo',
  'all_video',
  'gzio',
];

/** Files the configuration step writes, by their path in the installed system. */
export const configuredFiles = [
  '/etc/fstab',
  '/etc/hostname',
  '/etc/hosts',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/systemd/network/10-cellar.network',
  // systemd-networkd enabled, so the box applies that file (system-files.ts networkdLinks).
  '/etc/systemd/system/multi-user.target.wants/systemd-networkd.service',
  '/boot/grub/grub.cfg',
  '/boot/grub/i386-pc/core.img',
  '/var/lib/cellar/install-id',
  '/var/lib/cellar/cellar.sqlite',
  // The first administrator's system account, made with the target's own tools (target-accounts.ts).
  '/etc/passwd',
  '/etc/shadow',
  '/etc/group',
  '/var/lib/samba/private/passdb.tdb',
  // The box's own SSH host keys instead of the image's (ssh-keygen -A).
  '/etc/ssh/ssh_host_rsa_key',
  '/etc/ssh/ssh_host_ecdsa_key',
  '/etc/ssh/ssh_host_ed25519_key',
];

/** Partition paths as the kernel names them: sda1, but nvme0n1p1 and loop0p1 after a trailing digit. */
export function partitionPath(disk: string, n: number): string {
  return /\d$/.test(disk) ? `${disk}p${n}` : `${disk}${n}`;
}

export function targetLayout(disk: string, target: string): TargetLayout {
  return { disk, efi: partitionPath(disk, 2), system: partitionPath(disk, 3), target, efiStaging: path.join(path.dirname(target), 'efi-image') };
}

/**
 * Every step of an installation in order. GPT with a BIOS boot partition, an EFI system partition
 * and the system file system; the box boots by UEFI or BIOS with the same grub.cfg.
 */
export function installSteps(layout: TargetLayout, fileSystem: SystemFileSystem, image: string): InstallStep[] {
  const { disk, efi, system, target, efiStaging } = layout;
  const loader = path.join(efiStaging, 'BOOTX64.EFI');
  const systemFs: InstallStep[] =
    fileSystem === 'ext4'
      ? [
          { label: 'Creating the system file system', argv: ['mkfs.ext4', '-F', '-q', '-L', 'cellar-system', system] },
          { label: 'Mounting the system file system', argv: ['mount', system, target] },
        ]
      : [
          // The pool mounts below the target through its altroot; the installed system imports it as its root.
          {
            label: 'Creating the system pool',
            argv: ['zpool', 'create', '-f', '-R', target, '-O', 'mountpoint=/', '-O', 'compression=lz4', systemPool, system],
          },
          // The box's data is a dataset of its own: an update's rollback of the system must not take it back (docs/updates.md).
          {
            label: 'Creating the data dataset',
            argv: ['zfs', 'create', '-o', 'mountpoint=/var/lib/cellar', `${systemPool}/data`],
          },
        ];
  return [
    { label: 'Clearing old signatures', argv: ['wipefs', '-a', disk] },
    { label: 'Clearing the partition table', argv: ['sgdisk', '--zap-all', disk] },
    {
      label: 'Partitioning',
      argv: [
        'sgdisk',
        '-n',
        '1:0:+1M',
        '-t',
        '1:ef02',
        '-c',
        '1:bios-boot',
        '-n',
        '2:0:+256M',
        '-t',
        '2:ef00',
        '-c',
        '2:efi',
        '-n',
        '3:0:0',
        '-t',
        '3:8300',
        '-c',
        '3:cellar-system',
        disk,
      ],
    },
    // The kernel reads the new table now (udev would do it on a box; the medium may have none).
    { label: 'Reading the new partitions', argv: ['partx', '-u', disk] },
    { label: 'Creating the EFI system partition', argv: ['mkfs.vfat', '-F', '32', '-n', 'EFI', efi] },
    ...systemFs,
    { label: 'Writing the system image', argv: ['tar', '-x', '-p', '--numeric-owner', '--xattrs', '--xattrs-include=*', '-f', image, '-C', target] },
    { label: "Writing the box's configuration", action: 'configure' },
    // The image's host keys were taken out by the configuration (removeImageHostKeys): the box's own, made here once.
    { label: "Making the box's SSH host keys", argv: ['ssh-keygen', '-A', '-f', target] },
    // The EFI loader is built and copied with mtools rather than grub-install onto a mounted
    // partition: the medium's kernel then needs no FAT driver, and nothing is left mounted there.
    {
      label: 'Building the boot loader (UEFI)',
      argv: ['grub-mkimage', '-O', 'x86_64-efi', '-o', loader, '-p', '/boot/grub', '-c', path.join(efiStaging, efiEarlyConfig), ...efiModules],
    },
    { label: 'Installing the boot loader (UEFI)', argv: ['mmd', '-i', efi, '::/EFI', '::/EFI/BOOT'] },
    { label: 'Copying the boot loader (UEFI)', argv: ['mcopy', '-i', efi, loader, '::/EFI/BOOT/BOOTX64.EFI'] },
    // boot.img into the disk's first sector, core.img into the BIOS boot partition, GRUB's modules
    // into the target's /boot/grub. grub-install finds partitions through udevadm (udev).
    { label: 'Installing the boot loader (BIOS)', argv: ['grub-install', '--target=i386-pc', `--boot-directory=${path.join(target, 'boot')}`, disk] },
    fileSystem === 'ext4'
      ? { label: 'Unmounting the system file system', argv: ['umount', target] }
      : { label: 'Exporting the system pool', argv: ['zpool', 'export', systemPool] },
  ];
}

export function planOf(layout: TargetLayout, fileSystem: SystemFileSystem, steps: InstallStep[]): InstallPlan {
  return {
    disk: layout.disk,
    fileSystem,
    commands: steps.flatMap((s) => (s.argv ? [s.argv] : [])),
    files: configuredFiles,
  };
}

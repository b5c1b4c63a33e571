import path from 'node:path';
import type { InstallPlan, SystemFileSystem } from '../../../../shared/src/api/installer.ts';

/** The system pool's name when the system file system is ZFS. */
export const systemPool = 'cellar-system';

/** What a step does besides running a command: the installer's own writes at their place in the order. */
export type InstallAction = 'prepareEfiMount' | 'configure';

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
}

/** Files the configuration step writes, by their path in the installed system. */
export const configuredFiles = [
  '/etc/fstab',
  '/etc/hostname',
  '/etc/hosts',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/systemd/network/10-cellar.network',
  '/boot/grub/grub.cfg',
  '/var/lib/cellar/install-id',
  '/var/lib/cellar/cellar.sqlite',
];

/** Partition paths as the kernel names them: sda1, but nvme0n1p1 and loop0p1 after a trailing digit. */
export function partitionPath(disk: string, n: number): string {
  return /\d$/.test(disk) ? `${disk}p${n}` : `${disk}${n}`;
}

export function targetLayout(disk: string, target: string): TargetLayout {
  return { disk, efi: partitionPath(disk, 2), system: partitionPath(disk, 3), target };
}

/**
 * Every step of an installation in order. GPT with a BIOS boot partition and an EFI system
 * partition, so one disk boots on both kinds of firmware; the rest holds the system file system.
 */
export function installSteps(layout: TargetLayout, fileSystem: SystemFileSystem, image: string): InstallStep[] {
  const { disk, efi, system, target } = layout;
  const efiDir = path.join(target, 'boot/efi');
  const bootDir = path.join(target, 'boot');
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
    { label: 'Preparing the EFI mount point', action: 'prepareEfiMount' },
    { label: 'Mounting the EFI system partition', argv: ['mount', efi, efiDir] },
    { label: "Writing the box's configuration", action: 'configure' },
    {
      label: 'Installing the boot loader (UEFI)',
      argv: ['grub-install', '--target=x86_64-efi', `--efi-directory=${efiDir}`, `--boot-directory=${bootDir}`, '--removable', '--no-nvram'],
    },
    { label: 'Installing the boot loader (BIOS)', argv: ['grub-install', '--target=i386-pc', `--boot-directory=${bootDir}`, disk] },
    { label: 'Unmounting the EFI system partition', argv: ['umount', efiDir] },
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

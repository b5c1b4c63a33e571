import { chmod, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstallerNetworkConfig, SystemFileSystem } from '../../../../shared/src/api/installer/installer.ts';
import { writeZone } from '../time/zone-files.ts';
import { efiEarlyConfig, systemPool } from './install-plan.ts';

export interface SystemFilesInput {
  fileSystem: SystemFileSystem;
  hostName: string;
  timeZone: string;
  systemUuid: string | null;
  efiUuid: string;
  network: InstallerNetworkConfig | null;
}

/** A host name from the box's name: lower case letters, digits and dashes, at most 63. */
export function hostNameOf(boxName: string): string {
  const name = boxName
    .normalize('NFKD')
    // Accents go, their letters stay: Müller becomes muller.
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return name || 'cellar';
}

export function fstab(input: SystemFilesInput): string {
  const lines = ['# Written by the Cellar installer.'];
  // A ZFS root is mounted by the initramfs from the pool; ext4 is found by its UUID.
  if (input.fileSystem === 'ext4') lines.push(`UUID=${input.systemUuid} / ext4 errors=remount-ro 0 1`);
  lines.push(`UUID=${input.efiUuid} /boot/efi vfat umask=0077 0 1`);
  return `${lines.join('\n')}\n`;
}

/**
 * A fixed grub.cfg instead of grub-mkconfig, which would need the image's own grub and kernel
 * scripts to run inside it: Debian's /vmlinuz and /initrd.img links always name the current kernel.
 * The kernel and systemd write to the first serial port too, so a box without a screen (or a
 * virtual machine) can be followed there; tty0 comes last and so stays /dev/console, the screen.
 */
export function grubConfig(input: SystemFilesInput): string {
  const root = input.fileSystem === 'ext4' ? `root=UUID=${input.systemUuid}` : `root=ZFS=${systemPool}`;
  const search =
    input.fileSystem === 'ext4' ? `search --no-floppy --fs-uuid --set=root ${input.systemUuid}` : `search --no-floppy --label --set=root ${systemPool}`;
  return [
    '# Written by the Cellar installer.',
    'set timeout=3',
    'set default=0',
    "menuentry 'Cellar' {",
    '  insmod part_gpt',
    `  insmod ${input.fileSystem === 'ext4' ? 'ext2' : 'zfs'}`,
    `  ${search}`,
    `  linux /vmlinuz ${root} ro quiet console=ttyS0,115200 console=tty0`,
    '  initrd /initrd.img',
    '}',
    '',
  ].join('\n');
}

/** systemd-networkd's file for the installed system: the tested configuration, or DHCP on every card. */
export function networkFile(network: InstallerNetworkConfig | null): string {
  if (!network || network.method === 'dhcp') {
    const match = network ? `Name=${network.interface}` : 'Name=en* eth*';
    return `[Match]\n${match}\n\n[Network]\nDHCP=yes\n${(network?.nameservers ?? []).map((n) => `DNS=${n}\n`).join('')}`;
  }
  const lines = [`[Match]`, `Name=${network.interface}`, '', '[Network]', `Address=${network.address}`];
  if (network.gateway) lines.push(`Gateway=${network.gateway}`);
  for (const n of network.nameservers) lines.push(`DNS=${n}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The links `systemctl enable systemd-networkd` makes (its [Install] section with its Also= units),
 * by path in the installed system: Debian's image does not enable networkd, and without it the box
 * would ignore its network file and come up without an address (issue 36).
 */
export const networkdLinks: ReadonlyArray<readonly [link: string, unit: string]> = [
  ['/etc/systemd/system/multi-user.target.wants/systemd-networkd.service', '/lib/systemd/system/systemd-networkd.service'],
  ['/etc/systemd/system/dbus-org.freedesktop.network1.service', '/lib/systemd/system/systemd-networkd.service'],
  ['/etc/systemd/system/sockets.target.wants/systemd-networkd.socket', '/lib/systemd/system/systemd-networkd.socket'],
  ['/etc/systemd/system/sysinit.target.wants/systemd-network-generator.service', '/lib/systemd/system/systemd-network-generator.service'],
  // cellar.service wants network-online.target: it then starts once the network file applied.
  ['/etc/systemd/system/network-online.target.wants/systemd-networkd-wait-online.service', '/lib/systemd/system/systemd-networkd-wait-online.service'],
];

/** Enables systemd-networkd in the system below `root` as systemctl would (it needs no running systemd for links). */
export async function enableNetworkd(root: string): Promise<void> {
  for (const [link, unit] of networkdLinks) {
    const file = path.join(root, link);
    await mkdir(path.dirname(file), { recursive: true });
    await rm(file, { force: true });
    await symlink(unit, file);
  }
}

/**
 * Takes the SSH host keys the system image was built with out of the installed system: every box
 * written from one medium would otherwise answer with the same keys, and whoever has the medium
 * has their private halves. The install step after the configuration makes the box's own
 * (`ssh-keygen -A`, which only makes missing keys).
 */
export async function removeImageHostKeys(root: string): Promise<void> {
  const dir = path.join(root, 'etc/ssh');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('ssh_host_'))) await rm(path.join(dir, name), { force: true });
}

/** The EFI loader's built-in configuration: find the system file system, then its grub.cfg. */
export function efiEarlyConfigText(input: SystemFilesInput): string {
  const search =
    input.fileSystem === 'ext4' ? `search --no-floppy --fs-uuid --set=root ${input.systemUuid}` : `search --no-floppy --label --set=root ${systemPool}`;
  return `${search}\nset prefix=($root)/boot/grub\nconfigfile $prefix/grub.cfg\n`;
}

/** Writes the installed system's own files below `root` (the mounted target) and the EFI loader's configuration into `efiStaging`. */
export async function writeSystemFiles(root: string, efiStaging: string, input: SystemFilesInput): Promise<void> {
  const put = async (rel: string, text: string) => {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text, { mode: 0o644 });
    await chmod(file, 0o644);
  };
  await put('etc/fstab', fstab(input));
  await put('etc/hostname', `${input.hostName}\n`);
  await put('etc/hosts', `127.0.0.1\tlocalhost\n127.0.1.1\t${input.hostName}\n::1\tlocalhost ip6-localhost ip6-loopback\n`);
  await writeZone(root, input.timeZone);
  await put('etc/systemd/network/10-cellar.network', networkFile(input.network));
  await enableNetworkd(root);
  await removeImageHostKeys(root);
  await put('boot/grub/grub.cfg', grubConfig(input));
  // The EFI system partition's mount point (fstab); the partition itself is written with mtools.
  await mkdir(path.join(root, 'boot/efi'), { recursive: true });
  await writeFile(path.join(efiStaging, efiEarlyConfig), efiEarlyConfigText(input));
}

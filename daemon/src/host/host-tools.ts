/** What each program the daemon runs is for, and the Debian package that installs it: the words of a host.tool.missing answer. */
const tools: Record<string, { feature: string; package: string }> = {
  zpool: { feature: 'ZFS', package: 'zfsutils-linux' },
  zfs: { feature: 'ZFS', package: 'zfsutils-linux' },
  smartctl: { feature: 'SMART', package: 'smartmontools' },
  lsblk: { feature: 'disk listing', package: 'util-linux' },
  wipefs: { feature: 'disk listing', package: 'util-linux' },
  smbd: { feature: 'Samba', package: 'samba' },
  smbpasswd: { feature: 'Samba', package: 'samba-common-bin' },
  smbcontrol: { feature: 'Samba', package: 'samba-common-bin' },
  smbstatus: { feature: 'Samba', package: 'samba' },
  testparm: { feature: 'Samba', package: 'samba-common-bin' },
  sshd: { feature: 'SFTP', package: 'openssh-server' },
  journalctl: { feature: 'the system journal', package: 'systemd' },
  setfacl: { feature: 'access control lists', package: 'acl' },
  getfacl: { feature: 'access control lists', package: 'acl' },
  nginx: { feature: 'the reverse proxy', package: 'nginx' },
  nft: { feature: 'the firewall of proxy streams', package: 'nftables' },
  chronyc: { feature: 'time synchronisation', package: 'chrony' },
  systemctl: { feature: 'restart and shut-down', package: 'systemd' },
  ip: { feature: 'network settings', package: 'iproute2' },
  git: { feature: 'store catalogs', package: 'git' },
  'ssh-keygen': { feature: 'private store catalogs', package: 'openssh-client' },
  sgdisk: { feature: 'the installer', package: 'gdisk' },
  partx: { feature: 'the installer', package: 'util-linux' },
  'mkfs.ext4': { feature: 'the installer', package: 'e2fsprogs' },
  'mkfs.vfat': { feature: 'the installer', package: 'dosfstools' },
  'grub-mkimage': { feature: 'the installer', package: 'grub-efi-amd64-bin' },
  'grub-install': { feature: 'the installer', package: 'grub2-common' },
  // grub-install asks udev which disk a partition belongs to; without it, it finds no GRUB drive.
  udevadm: { feature: 'the installer', package: 'udev' },
  mmd: { feature: 'the installer', package: 'mtools' },
  mcopy: { feature: 'the installer', package: 'mtools' },
  ping: { feature: "the installer's network test", package: 'iputils-ping' },
};

/** The feature and package of a program; a program not listed names itself. */
export function toolInfo(file: string): { tool: string; feature: string; package: string } {
  const tool = file.split('/').pop() ?? file;
  return { tool, ...(tools[tool] ?? { feature: tool, package: tool }) };
}

import { protocolGroups, usersGroup } from '../accounts.ts';
import type { FileServicesDeployment } from './file-services.ts';

/**
 * The box's own Samba and OpenSSH: a standalone server with its tdbsam passdb (where the
 * accounts area puts the SMB passwords), no guests, no printers, SMB2 and later; the SFTP
 * fragment in sshd_config.d, which Debian's sshd_config includes first.
 */
export const boxDeployment: FileServicesDeployment = {
  smb: {
    confPath: '/etc/samba/smb.conf',
    globals: [
      ['server role', 'standalone server'],
      ['passdb backend', 'tdbsam'],
      ['map to guest', 'never'],
      ['restrict anonymous', '2'],
      ['server min protocol', 'SMB2_10'],
      ['load printers', 'no'],
      ['printing', 'bsd'],
      ['printcap name', '/dev/null'],
      ['disable spoolss', 'yes'],
      ['unix password sync', 'no'],
      ['log file', '/var/log/samba/log.%m'],
      ['max log size', '1000'],
      ['logging', 'file'],
    ],
    reload: ['smbcontrol', 'smbd', 'reload-config'],
  },
  sftp: {
    sftpGroup: protocolGroups.sftp,
    accountsGroup: usersGroup,
    chrootBase: '/srv/cellar-sftp',
    confPath: '/etc/ssh/sshd_config.d/cellar-sftp.conf',
    check: ['sshd', '-t'],
    reload: ['systemctl', 'reload', 'ssh'],
  },
  shareGroupPrefix: 'cellar-share-',
};

/** Effective access of one user to a share, as the file services enforce it. */
export type FileAccess = 'read' | 'readWrite';

export interface FileShareUser {
  username: string;
  access: FileAccess;
}

/**
 * An extra holder of a folder inside a share, not a user of the share: an app's account on the
 * folder mapped to one of its storage requests. It gets the folder and everything below it, and
 * passage (search only) through the folders above it.
 */
export interface FolderHolder {
  username: string;
  /** The folder, relative to the share ('' is the share itself), checked segment by segment when mapped. */
  path: string;
  access: FileAccess;
}

/** A share as Samba, sshd and the disk see it. */
export interface FileShare {
  id: number;
  name: string;
  /** Real path of the share's folder. */
  hostPath: string;
  smb: boolean;
  smbEncrypt: boolean;
  sftp: boolean;
  /** Users with any effective access (administrators included, deactivated users never). */
  users: FileShareUser[];
  /** Holders of folders inside the share (apps' storage mappings); none when absent. */
  folders?: FolderHolder[];
}

/** Everything the generated configurations are made from, read fresh on every apply. */
export interface FileServicesState {
  shares: FileShare[];
  /** Active users holding the SMB right. */
  smbUsers: string[];
  /** Active users holding the SFTP right. */
  sftpUsers: string[];
}

/** Names the file services keep out of reach in every share (decided by the files area). */
export interface ReservedNames {
  trashFolder: string;
  uploadTempPrefix: string;
}

// Control characters would end a line of smb.conf or sshd_config and start a new directive.
// eslint-disable-next-line no-control-regex -- matching them is the point
const controlChars = /[\u0000-\u001f\u007f]/;

/**
 * Whether a share name can be a Samba section name: Windows refuses these characters in
 * share names, `%` would be expanded as a Samba variable, and the reserved sections are taken.
 */
export function smbNameUsable(name: string): boolean {
  if (controlChars.test(name) || /["/\\[\]:|<>+=;,*?%]/.test(name)) return false;
  if (name !== name.trim() || name.length === 0 || name.length > 80) return false;
  return !['global', 'homes', 'printers', 'print$', 'ipc$'].includes(name.toLowerCase());
}

/** Whether a host path can stand as a value in smb.conf (no `%` variables, nothing that ends the line). */
export function smbPathUsable(hostPath: string): boolean {
  return hostPath.startsWith('/') && !controlChars.test(hostPath) && !hostPath.includes('%') && hostPath === hostPath.trim();
}

/** Whether a share name can be a folder name inside an SFTP chroot. */
export function folderNameUsable(name: string): boolean {
  return name !== '.' && name !== '..' && name.length > 0 && !name.includes('/') && !controlChars.test(name);
}

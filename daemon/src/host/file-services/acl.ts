import type { FileShare } from './file-share.ts';

export interface ShareAcl {
  /** The access ACL of every file and folder in the share. */
  access: string;
  /** The default ACL of every folder, inherited by new files and folders. */
  defaults: string;
}

/**
 * POSIX ACLs from effective access: a named entry per user (read `rX`, read-write `rwX`),
 * nobody else (group and other empty). Named users rather than groups so that the disk
 * gives exactly what SMB and SFTP give: a deactivated member of a granted group has nothing.
 */
export function shareAcl(share: Pick<FileShare, 'users'>): ShareAcl {
  const users = [...share.users].sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
  const access = ['u::rwX', 'g::---', 'o::---', ...users.map((u) => `u:${u.username}:${u.access === 'readWrite' ? 'rwX' : 'rX'}`), 'm::rwX'];
  // A default ACL takes no X: the mode a program creates a file with already drops x where it should.
  const defaults = ['u::rwx', 'g::---', 'o::---', ...users.map((u) => `u:${u.username}:${u.access === 'readWrite' ? 'rwx' : 'r-x'}`), 'm::rwx'];
  return { access: access.join(','), defaults: defaults.join(',') };
}

/**
 * The mode bits (owner, group class = mask, other) the access ACL gives an entry, `X` taken
 * as setfacl does: x for folders and for files that already have an x bit. Setting this mode
 * is all an entry created inside the share needs: its named entries come from the folder's
 * default ACL unchanged, only the mode the creating program asked for narrowed the mask.
 */
export function aclMode(access: string, entry: { directory: boolean; mode: number }): number {
  const executable = entry.directory || (entry.mode & 0o111) !== 0;
  const bits = (tag: string): number => {
    const perms =
      access
        .split(',')
        .find((e) => e.startsWith(`${tag}::`))
        ?.slice(tag.length + 2) ?? '---';
    return (perms.includes('r') ? 4 : 0) | (perms.includes('w') ? 2 : 0) | (perms.includes('x') || (perms.includes('X') && executable) ? 1 : 0);
  };
  return (bits('u') << 6) | (bits('m') << 3) | bits('o');
}

/**
 * The mode of an entry in a share kept by group modes instead of ACLs (a file system without
 * POSIX ACLs): owner and the share's group read and write, nobody else anything; folders
 * set-group-ID, so what is made inside takes the share's group. x as `X` above.
 */
export function groupMode(entry: { directory: boolean; mode: number }): number {
  if (entry.directory) return 0o2770;
  return (entry.mode & 0o111) !== 0 ? 0o770 : 0o660;
}

import type { FileAccess, FileServicesState, FolderHolder } from './file-share.ts';

/** What the file services read of the shares and identity areas, as plain functions. */
export interface FileServicesSources {
  shares(): Promise<{ id: number; name: string; hostPath: string | null; smbEnabled: boolean; smbEncrypt: boolean; sftpEnabled: boolean }[]>;
  /** Every user's effective access to a share ('none' for deactivated users and those without a grant). */
  effectiveAccess(shareId: number): Promise<{ username: string; access: FileAccess | 'none' }[]>;
  /** Active holders of the SMB or SFTP right. */
  rightHolders(right: 'smb' | 'sftp'): Promise<string[]>;
  /** Holders of folders inside a share (apps' storage mappings in force). */
  folderHolders?(shareId: number): Promise<FolderHolder[]>;
}

/** Reads the state an apply pass works from: each share with the users who have any access. */
export function fileServicesState(sources: FileServicesSources): () => Promise<FileServicesState> {
  return async () => {
    const rows = await sources.shares();
    const shares = await Promise.all(
      // Administrators see every host path; a share without one has nothing to serve.
      rows
        .filter((row): row is typeof row & { hostPath: string } => row.hostPath !== null)
        .map(async (row) => ({
          id: row.id,
          name: row.name,
          hostPath: row.hostPath,
          smb: row.smbEnabled,
          smbEncrypt: row.smbEncrypt,
          sftp: row.sftpEnabled,
          users: (await sources.effectiveAccess(row.id)).flatMap((u) => (u.access === 'none' ? [] : [{ username: u.username, access: u.access }])),
          folders: (await sources.folderHolders?.(row.id)) ?? [],
        })),
    );
    return { shares, smbUsers: await sources.rightHolders('smb'), sftpUsers: await sources.rightHolders('sftp') };
  };
}

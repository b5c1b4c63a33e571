import type { Transaction } from 'sequelize';
import type { BackupCounts, BackupPartName, MissingDataset } from '../../../shared/src/api/backup/backup.ts';
import type { PendingNetworkChange } from '../../../shared/src/api/network/network.ts';
import type { Mode } from '../config/config.ts';
import { boxDeployment } from '../host/file-services/box-deployment.ts';

/**
 * What an area gives the backup: its configuration as JSON, a check with counts, and a restore.
 * Each area builds its own parts and carries them on its contract (Area.backupPart); the backup
 * area only collects them and orchestrates.
 */
export interface BackupPart<T = unknown> {
  name: BackupPartName;
  /**
   * Parts whose rows this part's rows point at (permissions at users and groups): restored before
   * it. The collector keeps the format's order (backupPartNames) and refuses a part listed before
   * one it names here, so the order is checked where the daemon is built, not found out by a restore.
   */
  after?: readonly BackupPartName[];
  /** The area's configuration now, as plain JSON (secrets included: the file is encrypted). */
  export(): Promise<T>;
  /**
   * Checks a part read from a backup and answers what it holds, what a restore here would leave
   * out, and (shares) which folders this box lacks; throws backup.part.invalid, or the code the
   * same operation by hand is refused with.
   */
  inspect(data: unknown): Promise<{ data: T; counts: BackupCounts; skipped?: string[]; missingDatasets?: MissingDataset[] }>;
  /** Replaces the area's rows inside the one restore transaction; may name what it left out because this box lacks it. */
  restore(data: T, transaction: Transaction): Promise<void | { skipped: string[] }>;
  /**
   * Host effects once the transaction committed (accounts, Samba, files); absent where there are
   * none. The network part applies nothing directly: it answers the change it staged, which rolls
   * itself back unless the owner confirms it.
   */
  apply?(data: T, context: RestoreContext): Promise<void | { networkChange: PendingNetworkChange }>;
}

/** Who restores, and where the request came in: a staged network change answers its addresses with the same scheme and port. */
export interface RestoreContext {
  userId: number;
  connection: { localAddress: string | null; scheme: string; port: number };
}

/** How the parts' host effects run; DaemonOptions.backup overrides any of them (root system tests). */
export interface BackupHostOptions {
  /** Host effects of a restore run (system accounts, Samba, SSH host keys): on a box, or in root system tests. */
  applyHost: boolean;
  /** Folder of the SSH host keys: /etc/ssh on a box, a test folder in system tests, none in development mode. */
  sshDir: string | null;
  /** smb.conf whose passdb holds the SMB passwords; null is Samba's default. */
  smbConf: string | null;
  /** Makes sshd read the restored host keys (on a box `systemctl reload ssh`); null where no sshd serves them. */
  sshReload: readonly string[] | null;
}

/** On a box host effects are on and SSH host keys in /etc/ssh; in development mode neither, unless a test says so. */
export function backupHostOptions(mode: Mode, given: Partial<BackupHostOptions> = {}): BackupHostOptions {
  const box = mode === 'box';
  return { applyHost: box, sshDir: box ? '/etc/ssh' : null, smbConf: null, sshReload: box ? boxDeployment.sftp.reload : null, ...given };
}

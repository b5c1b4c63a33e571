import type { Transaction } from 'sequelize';
import type { BackupCounts, BackupPartName } from '../../../../shared/src/api/backup.ts';

/**
 * What an area gives the backup: its configuration as JSON, a check with counts, and a restore.
 * Each area implements one for its own rows and host state; the backup area only orchestrates.
 */
export interface BackupPart<T = unknown> {
  name: BackupPartName;
  /** The area's configuration now, as plain JSON (secrets included: the file is encrypted). */
  export(): Promise<T>;
  /** Checks a part read from a backup and answers what it holds, and what a restore here would leave out; throws backup.part.invalid. */
  inspect(data: unknown): Promise<{ data: T; counts: BackupCounts; skipped?: string[] }>;
  /** Replaces the area's rows inside the one restore transaction; may name what it left out because this box lacks it. */
  restore(data: T, transaction: Transaction): Promise<void | { skipped: string[] }>;
  /** Host effects once the transaction committed (accounts, Samba, files); absent where there are none. */
  apply?(data: T): Promise<void>;
}

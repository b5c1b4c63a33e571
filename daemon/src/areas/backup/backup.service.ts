import { hostname } from 'node:os';
import type { Sequelize } from 'sequelize';
import {
  type BackupPartName,
  type BackupPartSummary,
  type BackupSummary,
  type MissingDataset,
  type RestoreResult,
  type SkippedByPart,
} from '../../../../shared/src/api/backup/backup.ts';
import { BackupFormatError, readBackup, writeBackup } from '../../../../shared/src/backup/backup-file.ts';
import { isoAt, type Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { CommandError } from '../../host/command-runner.ts';
import { assertPasswordPolicy } from '../identity/users/password-policy.ts';
import type { BackupPart, RestoreContext } from '../backup-part.ts';
import { InspectedStore, type InspectedBackup } from './inspected-store.ts';

export interface BackupDeps {
  db: Sequelize;
  parts: readonly BackupPart[];
  clock: Clock;
  logger: Logger;
  version: string;
  /** Ends every session (restoring users signs everybody out). */
  signOutEverybody: () => Promise<void>;
  /** Rebuilds the daemon from the restored configuration (see DaemonOptions.restart). */
  restart: () => void;
}

/** Creates, inspects and restores configuration backups (docs/backup-format.md). */
export class BackupService {
  private readonly inspected: InspectedStore;
  /** One restore at a time: two would interleave their rows and host effects, and each restart the daemon. */
  private restoring = false;

  constructor(private readonly deps: BackupDeps) {
    this.inspected = new InspectedStore(deps.clock);
  }

  async create(password: string, caller: Principal): Promise<{ file: Buffer; fileName: string }> {
    assertPasswordPolicy(password, caller.username);
    const parts: Record<string, unknown> = {};
    for (const part of this.deps.parts) parts[part.name] = await part.export();
    const createdAt = isoAt(this.deps.clock);
    const file = await writeBackup({ createdAt, box: { name: hostname(), version: this.deps.version }, parts }, password);
    this.deps.logger.info('configuration backup created', { logCode: 'backup.created', component: 'backup', parts: Object.keys(parts), bytes: file.length });
    return { file, fileName: `${hostname()}-${createdAt.slice(0, 10)}.cellarbackup` };
  }

  async inspect(caller: Principal, password: string, base64: string): Promise<BackupSummary> {
    const content = await readBackup(Buffer.from(base64, 'base64'), password).catch((err: unknown) => {
      if (err instanceof BackupFormatError) throw new ProblemError(err.code, err.params);
      throw err;
    });
    const checked = new Map<string, unknown>();
    const summaries: BackupPartSummary[] = [];
    const sharesWithoutDataset: MissingDataset[] = [];
    for (const [name, raw] of Object.entries(content.parts)) {
      const part = this.deps.parts.find((p) => p.name === name);
      if (!part) {
        // A part of a newer version: shown, never restored.
        summaries.push({ name, counts: {}, restorable: false });
        continue;
      }
      const { data, counts, skipped, missingDatasets } = await part.inspect(raw);
      checked.set(name, data);
      sharesWithoutDataset.push(...(missingDatasets ?? []));
      summaries.push({ name, counts, restorable: true, ...(skipped?.length ? { skipped } : {}) });
    }
    const kept = this.inspected.keep(caller.id, (backupId, expiresAt) => ({
      summary: { backupId, createdAt: content.createdAt, box: content.box, parts: summaries, sharesWithoutDataset, expiresAt },
      parts: checked,
    }));
    this.deps.logger.info('configuration backup inspected', {
      logCode: 'backup.inspected',
      component: 'backup',
      backupId: kept.summary.backupId,
      parts: [...checked.keys()],
    });
    return kept.summary;
  }

  /**
   * Rows of every chosen part in one transaction, in the parts' order (collectParts: users before
   * what points at them); then host effects; then sessions end when users changed. The caller answers and then calls restart().
   */
  async restore(caller: Principal, backupId: string, names: readonly BackupPartName[], connection: RestoreContext['connection']): Promise<RestoreResult> {
    const kept = this.inspected.get(backupId, caller.id);
    if (this.restoring) throw new ProblemError('backup.restore.running');
    this.restoring = true;
    try {
      return await this.restoreKept(kept, backupId, names, { userId: caller.id, connection });
    } finally {
      this.restoring = false;
    }
  }

  private async restoreKept(kept: InspectedBackup, backupId: string, names: readonly BackupPartName[], context: RestoreContext): Promise<RestoreResult> {
    const absent = names.filter((n) => !kept.parts.has(n));
    if (absent.length > 0) throw new ProblemError('backup.part.not_in_backup', { parts: absent });
    const chosen = this.deps.parts.filter((p) => names.includes(p.name));
    const skipped: SkippedByPart[] = [];
    await this.deps.db.transaction(async (transaction) => {
      for (const part of chosen) {
        const names = (await part.restore(kept.parts.get(part.name), transaction))?.skipped ?? [];
        if (names.length > 0) skipped.push({ part: part.name, names });
      }
    });
    this.inspected.discard(backupId);
    this.deps.logger.info('configuration restored', { logCode: 'backup.restored', component: 'backup', backupId, parts: chosen.map((p) => p.name) });
    // The rows are in: a failed host effect is reported, and the restart and sign-out still follow.
    const hostFailed: BackupPartName[] = [];
    let networkChange: RestoreResult['networkChange'] = null;
    for (const part of chosen) {
      const applied = await part.apply?.(kept.parts.get(part.name), context).catch((err: unknown) => {
        hostFailed.push(part.name);
        const command =
          err instanceof CommandError
            ? { command: err.argv.join(' '), exitCode: err.result.exitCode }
            : { error: err instanceof Error ? err.message : String(err) };
        this.deps.logger.error('restored part not applied on the host', { logCode: 'backup.partNotApplied', component: 'backup', part: part.name, ...command });
      });
      if (applied) networkChange = applied.networkChange;
    }
    const signedOut = names.includes('users');
    if (signedOut) await this.deps.signOutEverybody();
    return {
      restored: chosen.map((p) => p.name),
      signedOut,
      sharesWithoutDataset: names.includes('shares') ? kept.summary.sharesWithoutDataset : [],
      hostFailed,
      skipped,
      networkChange,
      restarting: true,
    };
  }

  restart(): void {
    this.deps.logger.info('restarting after a restore', { logCode: 'backup.restarting', component: 'backup' });
    this.deps.restart();
  }
}

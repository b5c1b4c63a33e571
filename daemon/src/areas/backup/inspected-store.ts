import { randomBytes } from 'node:crypto';
import { backupKeptMinutes, type BackupSummary } from '../../../../shared/src/api/backup/backup.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';

/** A backup that was decrypted and checked, waiting for its administrator to restore parts of it. */
export interface InspectedBackup {
  ownerId: number;
  summary: BackupSummary;
  /** Each checked part's data by name. */
  parts: Map<string, unknown>;
  expiresAt: number;
}

const keptMs = backupKeptMinutes * 60_000;
/** Inspected backups kept per administrator: each may hold up to the upload limit in memory, so a loop of inspects cannot fill it. */
export const keptPerOwner = 3;

/**
 * Inspected backups for 15 minutes, in memory only: their content holds password hashes and keys,
 * so nothing of them is written to disk, and a restart forgets them.
 */
export class InspectedStore {
  private readonly kept = new Map<string, InspectedBackup>();

  constructor(private readonly clock: Clock) {}

  keep(ownerId: number, make: (backupId: string, expiresAt: string) => Omit<InspectedBackup, 'ownerId' | 'expiresAt'>): InspectedBackup {
    this.sweep();
    // The oldest of this administrator's goes first (a Map iterates in insertion order).
    const own = [...this.kept].filter(([, k]) => k.ownerId === ownerId);
    for (const [oldId] of own.slice(0, Math.max(0, own.length - keptPerOwner + 1))) this.kept.delete(oldId);
    const id = randomBytes(16).toString('hex');
    const expiresAt = this.clock.now() + keptMs;
    const kept = { ...make(id, new Date(expiresAt).toISOString()), ownerId, expiresAt };
    this.kept.set(id, kept);
    return kept;
  }

  /** The backup while kept for this administrator; another's or an expired one is not found. */
  get(id: string, ownerId: number): InspectedBackup {
    this.sweep();
    const kept = this.kept.get(id);
    if (!kept || kept.ownerId !== ownerId) throw new ProblemError('backup.inspected.not_found', { backupId: id });
    return kept;
  }

  discard(id: string): void {
    this.kept.delete(id);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [id, kept] of this.kept) if (kept.expiresAt <= now) this.kept.delete(id);
  }
}

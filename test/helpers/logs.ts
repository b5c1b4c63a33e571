import type { LogLevel } from '../../shared/src/api/logs/logs.ts';
import type { TestDaemon } from './daemon.ts';

export interface SeedEntry {
  level: LogLevel;
  message: string;
  source?: string;
  /** ISO time; the entry's own time rather than now. */
  time?: string;
  fields?: Record<string, unknown>;
  requestId?: string;
}

/** Writes entries through the daemon's own logger, as any area would (the store is its sink). */
export function seedLogs(box: TestDaemon, entries: readonly SeedEntry[]): void {
  for (const e of entries) {
    box.daemon.logger.log({ level: e.level, message: e.message, source: e.source ?? 'daemon', timestamp: e.time, requestId: e.requestId, ...e.fields });
  }
}

export const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();
export const daysAgo = (d: number): string => hoursAgo(d * 24);

import type { LogLevel } from '../core/logger.ts';
import type { LogRecord } from '../core/logger.ts';
import type { CommandRunner } from './command-runner.ts';

/** One line of `journalctl -o json`: string fields, or byte arrays for values that are not UTF-8. */
export type JournalJson = Record<string, string | number[] | null | undefined>;

export interface JournalBatch {
  records: LogRecord[];
  /** The cursor after the last entry read; unchanged when nothing was new. */
  cursor: string | null;
}

/** syslog priorities 0 (emerg) to 7 (debug) onto the store's four levels. */
function levelOf(priority: string | undefined): LogLevel {
  const p = Number(priority ?? 6);
  if (p <= 3) return 'error';
  if (p === 4) return 'warn';
  if (p <= 6) return 'info';
  return 'debug';
}

function text(value: string | number[] | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return Array.isArray(value) ? Buffer.from(value).toString('utf8') : value;
}

/** `smbd.service` or the syslog identifier becomes `system/smbd`. */
function serviceOf(entry: JournalJson): string {
  const unit = text(entry._SYSTEMD_UNIT);
  if (unit) return unit.replace(/\.service$/, '');
  return text(entry.SYSLOG_IDENTIFIER) ?? text(entry._COMM) ?? 'journal';
}

/** Maps one journal entry to a log store record with source `system/<service>`. */
export function journalRecord(entry: JournalJson): LogRecord {
  const micros = Number(text(entry.__REALTIME_TIMESTAMP));
  const service =
    serviceOf(entry)
      .replace(/[^A-Za-z0-9@._:-]/g, '_')
      .slice(0, 128) || 'journal';
  const fields: Record<string, unknown> = {};
  for (const [key, name] of [
    ['_SYSTEMD_UNIT', 'unit'],
    ['SYSLOG_IDENTIFIER', 'identifier'],
    ['_PID', 'pid'],
    ['_HOSTNAME', 'hostname'],
    ['_TRANSPORT', 'transport'],
  ] as const) {
    const value = text(entry[key]);
    if (value !== undefined) fields[name] = value;
  }
  return {
    time: new Date(Number.isFinite(micros) ? Math.floor(micros / 1000) : Date.now()).toISOString(),
    level: levelOf(text(entry.PRIORITY)),
    source: `system/${service}`,
    message: text(entry.MESSAGE) ?? '',
    fields,
    requestId: null,
    userId: null,
  };
}

/** Parses journalctl's JSON lines; answers the records and the last cursor. */
export function parseJournal(output: string, previous: string | null): JournalBatch {
  const records: LogRecord[] = [];
  let cursor = previous;
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as JournalJson;
    records.push(journalRecord(entry));
    cursor = text(entry.__CURSOR) ?? cursor;
  }
  return { records, cursor };
}

/**
 * Reads the system journal after a cursor. journalctl is a read-only probe, so it runs in
 * development mode too; the daemon follows the journal only on a box.
 */
export class JournalReader {
  constructor(private readonly runner: CommandRunner) {}

  /** Entries after `cursor`; without one, the newest `firstRun` entries start the store. */
  async readAfter(cursor: string | null, firstRun = 1000): Promise<JournalBatch> {
    const argv = ['journalctl', '-o', 'json', '--no-pager', cursor ? `--after-cursor=${cursor}` : `--lines=${firstRun}`];
    const result = await this.runner.read(argv, { timeoutMs: 30_000 });
    return parseJournal(result.stdout, cursor);
  }
}

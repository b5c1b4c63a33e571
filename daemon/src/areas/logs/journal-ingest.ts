import type { JournalBatch } from '../../host/journal.ts';
import type { LogStore } from './log-store.ts';
import { readState, writeState } from './logs.queries.ts';

const cursorKey = 'journalCursor';

/**
 * On a box: copies new journal entries into the store as `system/<service>`, following a
 * cursor kept in the store, so a restart continues where it stopped. Scheduled; one run
 * reads everything new since the last.
 */
export class JournalIngest {
  constructor(
    private readonly reader: { readAfter(cursor: string | null): Promise<JournalBatch> },
    private readonly store: LogStore,
  ) {}

  async runOnce(): Promise<number> {
    const cursor = await readState<string>(this.store.db, cursorKey);
    const batch = await this.reader.readAfter(cursor);
    if (batch.records.length === 0) return 0;
    for (const record of batch.records) this.store.write(record);
    // The cursor is saved after the entries are in the store: a crash between repeats, never loses.
    await this.store.flush();
    await this.store.exclusive((db) => writeState(db, cursorKey, batch.cursor));
    return batch.records.length;
  }
}

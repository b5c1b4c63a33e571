import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { LogEntry } from '../../../../shared/src/api/logs/logs.ts';
import { parseJournal } from '../../host/journal.ts';
import { JournalIngest } from './journal-ingest.ts';
import { LogStore } from './log-store.ts';
import { readState } from './logs.queries.ts';

const record = (message: string) => ({
  time: new Date().toISOString(),
  level: 'info' as const,
  source: 'daemon',
  message,
  fields: { n: 1 },
  requestId: null,
  userId: null,
});

describe('LogStore', () => {
  let dir: string;
  let store: LogStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-store-'));
    store = new LogStore({ flushMs: 50, maxBatch: 10 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps entries written before the file is open', async () => {
    store.write(record('first words of the daemon'));
    await store.open(path.join(dir, 'logs.sqlite'));
    await store.flush();
    const rows = await store.db.all<{ message: string }>('SELECT message FROM log_entries');
    expect(rows.map((r) => r.message)).to.deep.equal(['first words of the daemon']);
  });

  it('writes on its own in batches and tells listeners with the new ids', async () => {
    await store.open(path.join(dir, 'logs.sqlite'));
    const batches: LogEntry[][] = [];
    store.onWritten((entries) => batches.push(entries));
    for (let i = 0; i < 25; i++) store.write(record(`m${i}`));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(batches.map((b) => b.length)).to.deep.equal([10, 10, 5]);
    expect(batches.flat().map((e) => e.id)).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(batches.flat().map((e) => e.message)).to.deep.equal(Array.from({ length: 25 }, (_, i) => `m${i}`));
  });

  it('flushes what is buffered when it closes', async () => {
    const file = path.join(dir, 'logs.sqlite');
    await store.open(file);
    store.write(record('last words'));
    await store.close();
    const again = new LogStore();
    await again.open(file);
    const rows = await again.db.all<{ message: string }>('SELECT message FROM log_entries');
    await again.close();
    expect(rows.map((r) => r.message)).to.deep.equal(['last words']);
  });

  it('follows the journal from a saved cursor (recorded journalctl JSON)', async () => {
    await store.open(path.join(dir, 'logs.sqlite'));
    const sample = readFileSync(path.resolve(import.meta.dirname, '../../../../test/fixtures/journalctl-sample.jsonl'), 'utf8');
    const asked: (string | null)[] = [];
    const reader = { readAfter: async (cursor: string | null) => (asked.push(cursor), parseJournal(cursor ? '' : sample, cursor)) };
    const ingest = new JournalIngest(reader, store);
    expect(await ingest.runOnce()).to.equal(3);
    expect(await ingest.runOnce()).to.equal(0);
    const last = JSON.parse(sample.trim().split('\n')[2] as string).__CURSOR as string;
    expect(asked).to.deep.equal([null, last]);
    expect(await readState<string>(store.db, 'journalCursor')).to.equal(last);
    const rows = await store.db.all<{ source: string }>('SELECT source FROM log_entries ORDER BY id');
    expect(rows.map((r) => r.source)).to.deep.equal(['system/zed', 'system/smbd', 'system/sshd']);
  });
});

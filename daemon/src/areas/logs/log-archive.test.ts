import { mkdtempSync, readdirSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { appendToArchive, archiveDays, ArchiveReader } from './log-archive.ts';
import { toFilter } from './log-filter.ts';
import type { LogRow } from './logs.model.ts';

function row(id: number, iso: string, message: string, extra: Partial<LogRow> = {}): LogRow {
  return {
    id,
    time: Date.parse(iso),
    level: 'info',
    source: 'daemon',
    message,
    fields: '{"component":"test"}',
    request_id: null,
    user_id: null,
    code: null,
    params: null,
    ...extra,
  };
}

describe('log archive: compressed daily files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-archive-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one gzip JSON-lines file per UTC day and appends members to it', async () => {
    await appendToArchive(dir, [row(1, '2026-11-20T23:59:59.999Z', 'late'), row(2, '2026-11-21T00:00:00.000Z', 'early')]);
    await appendToArchive(dir, [row(3, '2026-11-21T10:00:00.000Z', 'later', { request_id: 'req-12345678', level: 'error' })]);
    expect(readdirSync(dir).sort()).to.deep.equal(['cellar-logs-2026-11-20.jsonl.gz', 'cellar-logs-2026-11-21.jsonl.gz']);
    const lines = gunzipSync(readFileSync(path.join(dir, 'cellar-logs-2026-11-21.jsonl.gz')))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(lines.map((l) => JSON.parse(l))).to.deep.equal([
      {
        id: 2,
        time: '2026-11-21T00:00:00.000Z',
        level: 'info',
        source: 'daemon',
        message: 'early',
        fields: { component: 'test' },
        requestId: null,
        userId: null,
        code: null,
        params: {},
      },
      {
        id: 3,
        time: '2026-11-21T10:00:00.000Z',
        level: 'error',
        source: 'daemon',
        message: 'later',
        fields: { component: 'test' },
        requestId: 'req-12345678',
        userId: null,
        code: null,
        params: {},
      },
    ]);
    const days = await archiveDays(dir);
    expect(days.map((d) => new Date(d.start).toISOString())).to.deep.equal(['2026-11-21T00:00:00.000Z', '2026-11-20T00:00:00.000Z']);
  });

  it('searches newest first with every filter and a cursor', async () => {
    await appendToArchive(dir, [
      row(1, '2026-11-19T08:00:00.000Z', 'pool tank imported', { source: 'system/zed' }),
      row(2, '2026-11-20T08:00:00.000Z', 'disk sdb failed', { level: 'error' }),
      row(3, '2026-11-20T09:00:00.000Z', 'signed in', { request_id: 'abcdefgh-1' }),
      row(4, '2026-11-21T09:00:00.000Z', 'disk sdc failed', { level: 'error' }),
    ]);
    const reader = new ArchiveReader();
    const ids = async (query: Parameters<typeof toFilter>[0], cursor: { time: number; id: number } | null = null, limit = 10) =>
      (await reader.search(dir, toFilter(query), cursor, limit)).map((r) => r.id);
    expect(await ids({})).to.deep.equal([4, 3, 2, 1]);
    expect(await ids({ level: ['error'] })).to.deep.equal([4, 2]);
    expect(await ids({ source: ['system/zed'] })).to.deep.equal([1]);
    expect(await ids({ search: 'disk failed' })).to.deep.equal([4, 2]);
    expect(await ids({ search: 'abcdefgh-1' })).to.deep.equal([3]);
    expect(await ids({ from: '2026-11-20T00:00:00.000Z', to: '2026-11-20T08:30:00.000Z' })).to.deep.equal([2]);
    expect(await ids({}, { time: Date.parse('2026-11-20T09:00:00.000Z'), id: 3 })).to.deep.equal([2, 1]);
    expect(await ids({}, null, 2)).to.deep.equal([4, 3]);
  });

  it('reads a day whose last member was torn by a crash', async () => {
    await appendToArchive(dir, [row(1, '2026-11-21T01:00:00.000Z', 'kept')]);
    appendFileSync(path.join(dir, 'cellar-logs-2026-11-21.jsonl.gz'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]));
    const rows = await new ArchiveReader().search(dir, toFilter({}), null, 10);
    expect(rows.map((r) => r.message)).to.deep.equal(['kept']);
  });

  it('keeps message codes with their params, and reads days archived before codes as entries without one', async () => {
    await appendToArchive(dir, [row(1, '2026-11-21T01:00:00.000Z', 'signed in', { code: 'auth.signedIn', params: '{"username":"anna","how":"totp"}' })]);
    const old = { id: 2, time: '2026-11-21T02:00:00.000Z', level: 'info', source: 'daemon', message: 'old', fields: {}, requestId: null, userId: null };
    appendFileSync(path.join(dir, 'cellar-logs-2026-11-21.jsonl.gz'), gzipSync(`${JSON.stringify(old)}\n`));
    const rows = await new ArchiveReader().search(dir, toFilter({}), null, 10);
    expect(rows.map((r) => [r.message, r.code, r.params])).to.deep.equal([
      ['old', null, null],
      ['signed in', 'auth.signedIn', '{"username":"anna","how":"totp"}'],
    ]);
  });

  it('answers nothing for a missing directory and ignores foreign files', async () => {
    expect(await archiveDays(path.join(dir, 'absent'))).to.deep.equal([]);
    appendFileSync(path.join(dir, 'notes.txt'), 'x');
    expect(await archiveDays(dir)).to.deep.equal([]);
  });
});

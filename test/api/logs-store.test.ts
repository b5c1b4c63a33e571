import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { LogEntry, LogSettings } from '../../shared/src/api/logs/logs.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { daysAgo, hoursAgo, seedLogs } from '../helpers/logs.ts';

const mib = 1024 ** 2;
const settings = (s: Partial<LogSettings>): LogSettings => ({
  maxBytes: 256 * mib,
  retentionDays: 90,
  archive: false,
  archiveRetentionDays: 365,
  archivePool: null,
  ...s,
});

describe('logs: archive, retention, size limit and export', () => {
  describe('with an archive on a pool', () => {
    let box: TestDaemon;
    let admin: TestClient;
    let archiveDir: string;

    before(async () => {
      // Pools come with the Storage area; a temp directory stands in for the pool's archive folder.
      archiveDir = mkdtempSync(path.join(tmpdir(), 'cellar-log-archive-'));
      box = await startTestDaemon(
        {},
        { logs: { archive: { dir: (pool) => (pool === null || pool === 'tank' ? archiveDir : null), pools: () => ['tank'] }, exportLimit: 25 } },
      );
      admin = await box.signIn();
      seedLogs(box, [
        ...[40, 35, 33, 32, 31].map((d, i) => ({ level: 'info' as const, source: 'system/pager', message: `old ${i}`, time: daysAgo(d) })),
        ...[5, 4, 3, 2, 1].map((h, i) => ({ level: 'info' as const, source: 'system/pager', message: `new ${i}`, time: hoursAgo(h) })),
      ]);
    });
    after(async () => {
      await box.close();
      rmSync(archiveDir, { recursive: true, force: true });
    });

    it('moves entries past retention into daily gzip files and reports them', async () => {
      const status = await admin.api.logs.updateSettings({ body: settings({ retentionDays: 30, archive: true, archivePool: 'tank' }) });
      expect(status.archivePool).to.equal('tank');
      expect(status.archivePools).to.deep.equal(['tank']);
      expect(status.archiveBytes).to.be.greaterThan(0);
      expect(Date.parse(status.oldestArchivedAt as string)).to.be.closeTo(Date.parse(daysAgo(40)), 5000);
      expect(Date.parse(status.oldestEntryAt as string)).to.be.greaterThan(Date.parse(daysAgo(30)));
      expect(readdirSync(archiveDir).filter((f) => /^cellar-logs-\d{4}-\d{2}-\d{2}\.jsonl\.gz$/.test(f))).to.have.length(5);
    });

    it('pages newest first across the boundary of current and archived entries', async () => {
      const seen: LogEntry[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await admin.api.logs.list({ query: { source: ['system/pager'], limit: 3, cursor } });
        seen.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(seen.map((e) => e.message)).to.deep.equal(['new 4', 'new 3', 'new 2', 'new 1', 'new 0', 'old 4', 'old 3', 'old 2', 'old 1', 'old 0']);
      expect(new Set(seen.map((e) => e.id)).size).to.equal(10);
    });

    it('searches and filters the archive too', async () => {
      const page = await admin.api.logs.list({ query: { search: 'old', source: ['system/pager'], to: daysAgo(34) } });
      expect(page.items.map((e) => e.message)).to.deep.equal(['old 1', 'old 0']);
    });

    it('exports JSON lines newest first as a download, including archived entries', async () => {
      const res = await admin.request('GET', '/api/logs/export?source=system/pager');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/x-ndjson/);
      expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="cellar-logs-\d{8}T\d{6}Z\.jsonl"$/);
      const lines = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LogEntry);
      expect(lines.map((e) => e.message)).to.deep.equal(['new 4', 'new 3', 'new 2', 'new 1', 'new 0', 'old 4', 'old 3', 'old 2', 'old 1', 'old 0']);
      expect(lines[0]).to.have.all.keys('id', 'time', 'level', 'source', 'message', 'fields', 'requestId', 'userId', 'code', 'params');
    });

    it('exports text lines', async () => {
      seedLogs(box, [{ level: 'error', source: 'system/text', message: 'two\nlines', fields: { disk: 'sdb' }, requestId: 'export-req-01' }]);
      const res = await admin.request('GET', '/api/logs/export?source=system/text&format=text');
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(res.headers.get('content-disposition')).to.match(/filename="cellar-logs-\d{8}T\d{6}Z\.log"$/);
      const text = await res.text();
      expect(text).to.match(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z ERROR system\/text \[export-req-01\] two\\nlines \{"disk":"sdb"\}\n$/);
    });

    it('stops an export at its limit with the newest entries', async () => {
      seedLogs(
        box,
        Array.from({ length: 40 }, (_, i) => ({
          level: 'info' as const,
          source: 'system/bulk',
          message: `bulk ${i}`,
          time: new Date(Date.now() - (40 - i) * 1000).toISOString(),
        })),
      );
      const res = await admin.request('GET', '/api/logs/export?source=system/bulk');
      const lines = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LogEntry);
      expect(lines).to.have.length(25);
      expect(lines[0]?.message).to.equal('bulk 39');
      expect(lines[24]?.message).to.equal('bulk 15');
    });

    it('deletes archived days past the archive retention, also with archiving switched off', async () => {
      const days = () => readdirSync(archiveDir).filter((f) => f.startsWith('cellar-logs-')).length;
      expect(days()).to.equal(5);
      // Archived days are 40, 35, 33, 32 and 31 days old: 34 days keep the three newest.
      const status = await admin.api.logs.updateSettings({
        body: settings({ retentionDays: 30, archive: false, archiveRetentionDays: 34, archivePool: 'tank' }),
      });
      expect(days()).to.equal(3);
      expect(Date.parse(status.oldestArchivedAt as string)).to.be.closeTo(Date.parse(daysAgo(33)), 5000);
      const page = await admin.api.logs.list({ query: { search: 'old', source: ['system/pager'] } });
      expect(page.items.map((e) => e.message)).to.deep.equal(['old 4', 'old 3', 'old 2']);
    });
  });

  describe('without an archive', () => {
    let box: TestDaemon;
    let admin: TestClient;
    before(async () => {
      box = await startTestDaemon();
      admin = await box.signIn();
    });
    after(() => box.close());

    it('deletes entries older than retentionDays', async () => {
      seedLogs(box, [
        { level: 'info', source: 'system/keep', message: 'ten days old', time: daysAgo(10) },
        { level: 'info', source: 'system/keep', message: 'six days old', time: daysAgo(6) },
      ]);
      expect((await admin.api.logs.list({ query: { source: ['system/keep'] } })).items).to.have.length(2);
      const status = await admin.api.logs.updateSettings({ body: settings({ retentionDays: 7 }) });
      expect(status.settings.retentionDays).to.equal(7);
      expect(status.archiveBytes).to.equal(0);
      const left = await admin.api.logs.list({ query: { source: ['system/keep'] } });
      expect(left.items.map((e) => e.message)).to.deep.equal(['six days old']);
      expect((await admin.api.logs.status()).settings).to.deep.equal(settings({ retentionDays: 7 }));
    });

    it('trims the oldest entries to stay below maxBytes', async () => {
      const filler = 'x'.repeat(1000);
      seedLogs(
        box,
        Array.from({ length: 4000 }, (_, i) => ({
          level: 'info' as const,
          source: 'system/fill',
          message: `fill ${i} ${filler}`,
          time: new Date(Date.now() - (4000 - i) * 10).toISOString(),
        })),
      );
      const before = await admin.api.logs.status();
      expect(before.usedBytes).to.be.greaterThan(3 * mib);
      const after = await admin.api.logs.updateSettings({ body: settings({ retentionDays: 7, maxBytes: mib }) });
      expect(after.usedBytes).to.be.at.most(mib);
      expect(after.entryCount).to.be.lessThan(before.entryCount);
      const newest = await admin.api.logs.list({ query: { source: ['system/fill'], limit: 1 } });
      expect(newest.items[0]?.message).to.match(/^fill 3999 /);
      const oldest = await admin.api.logs.list({ query: { search: 'fill 0' } });
      expect(oldest.items.filter((e) => e.message.startsWith('fill 0 '))).to.deep.equal([]);
    });

    it('runs the same trimming as scheduled work', async () => {
      seedLogs(box, [{ level: 'info', source: 'system/late', message: 'too old now', time: daysAgo(8) }]);
      expect(await box.daemon.scheduler.runNow('logs.maintain')).to.equal(true);
      expect((await admin.api.logs.list({ query: { source: ['system/late'] } })).items).to.deep.equal([]);
    });
  });
});

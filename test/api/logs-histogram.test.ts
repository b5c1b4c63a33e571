import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { LogHistogram } from '../../shared/src/api/logs/logs.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';
import { seedLogs } from '../helpers/logs.ts';

/** GET /api/logs/histogram: an operation beyond the spec that draws the Logs app's histogram. */
describe('logs: histogram of entries per level over time', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  let archiveDir: string;
  // An hour-aligned origin five days back: inside the default retention (maintenance may run at
  // any time), outside a one-day retention (the archive test), and plain arithmetic for buckets.
  const origin = Math.floor((Date.now() - 5 * 86_400_000) / 3_600_000) * 3_600_000;
  const at = (minutes: number) => new Date(origin + minutes * 60_000).toISOString();
  const hour = (h: number) => new Date(origin + h * 3_600_000).toISOString();

  before(async () => {
    archiveDir = mkdtempSync(path.join(tmpdir(), 'cellar-log-histogram-'));
    box = await startTestDaemon({}, { logs: { archive: { dir: () => archiveDir, pools: () => ['tank'] } } });
    admin = await box.signIn();
    await insertUser(box, 'dora', 'dora password 123');
    user = await box.signIn('dora', 'dora password 123');
    seedLogs(box, [
      { level: 'info', source: 'system/histo', message: 'first hour info', time: at(5) },
      { level: 'info', source: 'system/histo', message: 'first hour info', time: at(50) },
      { level: 'error', source: 'system/histo', message: 'first hour failure', time: at(59) },
      { level: 'warn', source: 'system/histo', message: 'second hour warning', time: at(61) },
      { level: 'debug', source: 'system/other', message: 'third hour detail', time: at(150), requestId: 'histogram-request-1' },
      { level: 'error', source: 'system/other', message: 'third hour failure', time: at(170), requestId: 'histogram-request-1' },
    ]);
  });
  after(async () => {
    await box.close();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  const counts = (h: LogHistogram) => h.buckets.map((b) => [b.counts.debug, b.counts.info, b.counts.warn, b.counts.error]);

  it('counts entries per level in equal buckets from..to, the first starting at from', async () => {
    const h = await admin.api.logs.histogram({ query: { from: hour(0), to: new Date(origin + 3 * 3_600_000 - 1).toISOString(), buckets: 3 } });
    expect(h.bucketMs).to.equal(3_600_000);
    expect(h.buckets.map((b) => b.start)).to.deep.equal([hour(0), hour(1), hour(2)]);
    expect(counts(h)).to.deep.equal([
      [0, 2, 0, 1],
      [0, 0, 1, 0],
      [1, 0, 0, 1],
    ]);
    expect(h.totals).to.deep.equal({ debug: 1, info: 2, warn: 1, error: 2 });
  });

  it('applies the filters of the list: level, source, search text and request id', async () => {
    const range = { from: hour(0), to: hour(3), buckets: 3 };
    const errors = await admin.api.logs.histogram({ query: { ...range, level: ['error'] } });
    expect(errors.totals).to.deep.equal({ debug: 0, info: 0, warn: 0, error: 2 });
    const other = await admin.api.logs.histogram({ query: { ...range, source: ['system/other'] } });
    expect(other.totals).to.deep.equal({ debug: 1, info: 0, warn: 0, error: 1 });
    const words = await admin.api.logs.histogram({ query: { ...range, search: 'first hour' } });
    expect(words.totals).to.deep.equal({ debug: 0, info: 2, warn: 0, error: 1 });
    const request = await admin.api.logs.histogram({ query: { ...range, search: 'histogram-request-1' } });
    expect(request.totals).to.deep.equal({ debug: 1, info: 0, warn: 0, error: 1 });
  });

  it('leaves out entries outside the range and defaults to the 24 hours before now', async () => {
    const narrow = await admin.api.logs.histogram({ query: { from: at(60), to: at(120), buckets: 1 } });
    expect(narrow.totals).to.deep.equal({ debug: 0, info: 0, warn: 1, error: 0 });
    seedLogs(box, [{ level: 'warn', source: 'system/now', message: 'just now' }]);
    const recent = await admin.api.logs.histogram({ query: { source: ['system/now'] } });
    expect(Date.parse(recent.to) - Date.parse(recent.from)).to.equal(24 * 3_600_000);
    expect(recent.buckets).to.have.length(60);
    expect(recent.totals.warn).to.equal(1);
    expect(recent.buckets[59]?.counts.warn).to.equal(1);
  });

  it('counts archived entries too, once each', async () => {
    // Retention of one day moves the seeded entries into the archive.
    await admin.api.logs.updateSettings({ body: { maxBytes: 256 * 1024 ** 2, retentionDays: 1, archive: true, archiveRetentionDays: 365, archivePool: null } });
    const page = await admin.api.logs.list({ query: { from: hour(0), to: hour(3) } });
    expect(page.items).to.have.length(6);
    const h = await admin.api.logs.histogram({ query: { from: hour(0), to: new Date(origin + 3 * 3_600_000 - 1).toISOString(), buckets: 3 } });
    expect(counts(h)).to.deep.equal([
      [0, 2, 0, 1],
      [0, 0, 1, 0],
      [1, 0, 0, 1],
    ]);
  });

  it('refuses a range that ends before it starts with logs.range.invalid', async () => {
    const err = await expectProblem(admin.api.logs.histogram({ query: { from: hour(2), to: hour(1) } }), 'logs.range.invalid', 400);
    expect(err.problem.params).to.deep.equal({ from: hour(2), to: hour(1) });
  });

  it('answers 400 request.query.invalid for bad buckets, levels and times', async () => {
    await expectProblem(admin.api.logs.histogram({ query: { buckets: 0 } }), 'request.query.invalid', 400);
    await expectProblem(admin.api.logs.histogram({ query: { buckets: 501 } }), 'request.query.invalid', 400);
    await expectProblem(admin.api.logs.histogram({ query: { level: ['fatal'] } as never }), 'request.query.invalid', 400);
    await expectProblem(admin.api.logs.histogram({ query: { from: 'yesterday' } }), 'request.query.invalid', 400);
  });

  it('refuses the unauthenticated (401) and non-administrators (403)', async () => {
    await expectProblem(box.client().api.logs.histogram({ query: {} }), 'auth.session.required', 401);
    await expectProblem(user.api.logs.histogram({ query: {} }), 'auth.permission.denied', 403);
  });
});

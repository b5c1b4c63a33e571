import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { TrashItem } from '../../shared/src/api/files/trash.ts';
import type { Clock } from '../../daemon/src/core/clock.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished, runOperation } from '../helpers/file-operations.ts';
import { sleep } from '../helpers/jobs.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { insertUser } from '../helpers/users.ts';

const dayMs = 24 * 60 * 60 * 1000;

/** The daemon's time, moved forward by the tests (retention) while the real time runs on. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => void (offset += ms) };
}

describe('recycle bin', function () {
  this.timeout(60_000);
  const clock = movableClock();
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  const at = (rel: string) => path.join(folder, rel);
  const write = (rel: string, content: string) => {
    mkdirSync(path.dirname(at(rel)), { recursive: true });
    writeFileSync(at(rel), content);
  };
  // The bin lies beside the share, outside its tree: <parent>/.cellar-trash/<share folder name>.
  const binFolder = () => path.join(path.dirname(folder), '.cellar-trash', path.basename(folder));
  const trashEntries = () => (existsSync(binFolder()) ? readdirSync(binFolder()) : []);
  const list = async (client = admin) => (await client.api.trash.list({ params: { shareId }, query: {} })).items;
  const itemFor = async (originalPath: string): Promise<TrashItem> => {
    const item = (await list()).find((i) => i.originalPath === originalPath);
    if (!item) throw new Error(`${originalPath} is not in the bin`);
    return item;
  };
  const trash = async (...paths: string[]) => {
    const job = await runOperation(admin, { op: 'delete', sources: paths.map((p) => ({ shareId, path: p })) });
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
  };
  const restore = async (ids: number[], onConflict?: 'fail' | 'skip' | 'overwrite' | 'rename') =>
    finished(admin, (await admin.api.trash.restore({ params: { shareId }, body: { ids, ...(onConflict ? { onConflict } : {}) } })).id);

  before(async () => {
    box = await startTestDaemon({}, { clock });
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'Bin'));
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  describe('listing', () => {
    it('lists newest first with deleted-at, original path, who deleted, size, type and the retention', async () => {
      write('l/first.txt', '12345');
      write('l/second/inner.txt', 'abc');
      await trash('l/first.txt');
      clock.advance(1000);
      await trash('l/second');
      const page = await admin.api.trash.list({ params: { shareId }, query: {} });
      expect(page.retentionDays).to.equal(30);
      const [second, first] = page.items;
      expect(second).to.deep.include({
        name: 'second',
        originalPath: 'l/second',
        type: 'folder',
        size: 3,
        deletedBy: { userId: admin.user!.id, username: 'admin' },
      });
      expect(first).to.deep.include({ name: 'first.txt', originalPath: 'l/first.txt', type: 'file', size: 5 });
      expect(Date.parse(second!.deletedAt)).to.be.greaterThan(Date.parse(first!.deletedAt));
      expect(Date.parse(first!.expiresAt!) - Date.parse(first!.deletedAt)).to.equal(30 * dayMs);
    });

    it('pages with a cursor and refuses a forged one', async () => {
      const all = await list();
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await admin.api.trash.list({ params: { shareId }, query: { limit: 1, ...(cursor ? { cursor } : {}) } });
        seen.push(...page.items.map((i) => i.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).to.deep.equal(all.map((i) => i.id));
      await expectProblem(admin.api.trash.list({ params: { shareId }, query: { cursor: 'bm90IGEgY3Vyc29y' } }), 'fs.cursor.invalid', 400);
    });

    it('keeps the bin out of the share (private, beside it) and refuses its name in the file API', async () => {
      expect(existsSync(at('.cellar-trash'))).to.equal(false);
      expect(trashEntries().length).to.be.greaterThan(0);
      expect(statSync(binFolder()).mode & 0o777).to.equal(0o700);
      expect(statSync(path.dirname(binFolder())).mode & 0o777).to.equal(0o700);
      const page = await admin.api.files.list({ params: { shareId }, query: {} });
      expect(page.items.map((e) => e.name)).to.not.include('.cellar-trash');
      await expectProblem(admin.api.files.list({ params: { shareId }, query: { path: '.cellar-trash' } }), 'fs.path.reserved', 400);
    });
  });

  describe('restore', () => {
    it('puts an item back into a folder that was deleted since, recreating it', async () => {
      write('r/deep/er/note.txt', 'note');
      await trash('r/deep/er/note.txt');
      const job = await runOperation(admin, { op: 'delete', sources: [{ shareId, path: 'r/deep' }], permanent: true });
      expect(job.state).to.equal('succeeded');
      expect(existsSync(at('r/deep'))).to.equal(false);
      const item = await itemFor('r/deep/er/note.txt');
      const done = await restore([item.id]);
      expect(done.state).to.equal('succeeded');
      expect(done.kind).to.equal('files.trash.restore');
      expect(readFileSync(at('r/deep/er/note.txt'), 'utf8')).to.equal('note');
      expect((await list()).map((i) => i.id)).to.not.include(item.id);
    });

    it('renames on a taken name by default; overwrite replaces; skip leaves the item in the bin; fail fails', async () => {
      const again = async (content: string) => {
        write('c/x.txt', content);
        await trash('c/x.txt');
        write('c/x.txt', 'current');
        return (await itemFor('c/x.txt')).id;
      };
      const renamed = await restore([await again('first')]);
      expect(renamed.result).to.deep.equal({ done: [{ id: (renamed.result as { done: { id: number }[] }).done[0]!.id, path: 'c/x (2).txt' }], skipped: [] });
      expect(readFileSync(at('c/x (2).txt'), 'utf8')).to.equal('first');
      expect(readFileSync(at('c/x.txt'), 'utf8')).to.equal('current');

      const skippedId = await again('second');
      const skipped = await restore([skippedId], 'skip');
      expect(skipped.result).to.deep.equal({ done: [], skipped: [{ id: skippedId, reason: 'exists' }] });
      expect((await list()).map((i) => i.id)).to.include(skippedId);

      const failed = await restore([skippedId], 'fail');
      expect(failed.state).to.equal('failed');
      expect(failed.error?.code).to.equal('fs.entry.exists');
      expect(failed.error?.params).to.deep.equal({ name: 'c/x.txt' });

      const overwritten = await restore([skippedId], 'overwrite');
      expect(overwritten.state).to.equal('succeeded');
      expect(readFileSync(at('c/x.txt'), 'utf8')).to.equal('second');
    });

    it('restores a folder merged into an existing one with overwrite', async () => {
      write('f/dir/a.txt', 'a');
      await trash('f/dir');
      write('f/dir/b.txt', 'b');
      const done = await restore([(await itemFor('f/dir')).id], 'overwrite');
      expect(done.state).to.equal('succeeded');
      expect(readdirSync(at('f/dir')).sort()).to.deep.equal(['a.txt', 'b.txt']);
    });
  });

  describe('delete for good and empty', () => {
    it('deletes the given items with their entries in the bin', async () => {
      write('g/one.txt', '1');
      write('g/two.txt', '2');
      await trash('g/one.txt', 'g/two.txt');
      const one = await itemFor('g/one.txt');
      const before = trashEntries().length;
      const job = await finished(admin, (await admin.api.trash.remove({ params: { shareId }, body: { ids: [one.id] } })).id);
      expect(job.state).to.equal('succeeded');
      expect(job.kind).to.equal('files.trash.delete');
      expect(trashEntries().length).to.equal(before - 1);
      expect((await list()).map((i) => i.originalPath)).to.not.include('g/one.txt');
      expect((await list()).map((i) => i.originalPath)).to.include('g/two.txt');
    });

    it("refuses ids that are not in this share's bin", async () => {
      const err = await expectProblem(admin.api.trash.restore({ params: { shareId }, body: { ids: [987654] } }), 'fs.trash.item_not_found', 404);
      expect(err.problem.params).to.deep.equal({ ids: [987654] });
      await expectProblem(admin.api.trash.remove({ params: { shareId }, body: { ids: [987654] } }), 'fs.trash.item_not_found', 404);
    });

    it('empties the whole bin', async () => {
      write('e/last.txt', 'last');
      await trash('e/last.txt');
      const job = await finished(admin, (await admin.api.trash.empty({ params: { shareId } })).id);
      expect(job.state).to.equal('succeeded');
      expect(job.kind).to.equal('files.trash.empty');
      expect(await list()).to.deep.equal([]);
      expect(trashEntries()).to.deep.equal([]);
    });
  });

  describe('retention', () => {
    const setRetention = (retentionDays: number) => admin.api.shares.setTrash({ params: { shareId }, body: { retentionDays } });
    afterEach(() => setRetention(30));

    it('the daily purge deletes items older than the retention, by the daemon clock', async () => {
      write('t/old.txt', 'old');
      await trash('t/old.txt');
      const old = await itemFor('t/old.txt');
      clock.advance(29 * dayMs);
      await box.daemon.scheduler.runNow('files.trash.purge');
      expect((await list()).map((i) => i.id)).to.include(old.id);
      write('t/young.txt', 'young');
      await trash('t/young.txt');
      const entries = trashEntries().length;
      // Past 30 days for the old item: the scheduler finds the daily purge due on its next tick.
      clock.advance(2 * dayMs);
      const deadline = Date.now() + 10_000;
      while ((await list()).some((i) => i.id === old.id)) {
        if (Date.now() > deadline) throw new Error('the purge did not run');
        await sleep(100);
      }
      expect((await list()).map((i) => i.originalPath)).to.include('t/young.txt');
      expect(trashEntries().length).to.equal(entries - 1);
    });

    it('a retention change applies to items already in the bin', async () => {
      write('t/changed.txt', 'changed');
      await trash('t/changed.txt');
      const item = await itemFor('t/changed.txt');
      clock.advance(10 * dayMs);
      await box.daemon.scheduler.runNow('files.trash.purge');
      expect((await list()).map((i) => i.id)).to.include(item.id);
      await setRetention(5);
      const page = await admin.api.trash.list({ params: { shareId }, query: {} });
      expect(page.retentionDays).to.equal(5);
      expect(Date.parse(page.items.find((i) => i.id === item.id)!.expiresAt!)).to.be.lessThan(clock.now());
      await box.daemon.scheduler.runNow('files.trash.purge');
      expect((await list()).map((i) => i.id)).to.not.include(item.id);
    });

    it('retention 0 keeps items until the bin is emptied', async () => {
      write('t/kept.txt', 'kept');
      await trash('t/kept.txt');
      await setRetention(0);
      clock.advance(4000 * dayMs);
      await box.daemon.scheduler.runNow('files.trash.purge');
      const item = await itemFor('t/kept.txt');
      expect(item.expiresAt).to.equal(null);
    });
  });

  describe('access and refusals', () => {
    let reader: TestClient;
    let stranger: TestClient;
    before(async () => {
      const readerId = await insertUser(box, 'reader', 'reader-password');
      await insertUser(box, 'stranger', 'stranger-password');
      await admin.api.shares.setGrants({ params: { shareId }, body: { grants: [{ subjectType: 'user', subjectId: readerId, level: 'read' }] } });
      reader = await box.signIn('reader', 'reader-password');
      stranger = await box.signIn('stranger', 'stranger-password');
      write('a/secret.txt', 'secret');
      await trash('a/secret.txt');
    });

    it('lets a reader list the bin but not restore, delete or empty it', async () => {
      const item = (await list(reader)).find((i) => i.originalPath === 'a/secret.txt')!;
      expect(item).to.not.equal(undefined);
      await expectProblem(reader.api.trash.restore({ params: { shareId }, body: { ids: [item.id] } }), 'fs.share.read_only', 403);
      await expectProblem(reader.api.trash.remove({ params: { shareId }, body: { ids: [item.id] } }), 'fs.share.read_only', 403);
      await expectProblem(reader.api.trash.empty({ params: { shareId } }), 'fs.share.read_only', 403);
      expect((await list()).map((i) => i.id)).to.include(item.id);
    });

    it('answers fs.share.not_found to a user without a grant and 401 without a session on every route', async () => {
      const routes: [string, string, unknown][] = [
        ['GET', `/api/files/${shareId}/trash`, undefined],
        ['POST', `/api/files/${shareId}/trash/restore`, { ids: [1] }],
        ['POST', `/api/files/${shareId}/trash/delete`, { ids: [1] }],
        ['POST', `/api/files/${shareId}/trash/empty`, undefined],
      ];
      for (const [method, url, body] of routes) {
        const anonymous = await box.client().request(method, url, { body });
        expect(anonymous.status, url).to.equal(401);
        expect((await anonymous.json()).code).to.equal('auth.session.required');
        const res = await stranger.request(method, url, { body });
        expect(res.status, url).to.equal(404);
        expect((await res.json()).code).to.equal('fs.share.not_found');
      }
    });

    it('answers 400 to bad input on every route', async () => {
      const cases: [string, string, unknown, string][] = [
        ['GET', `/api/files/${shareId}/trash?limit=0`, undefined, 'request.query.invalid'],
        ['GET', `/api/files/x/trash`, undefined, 'request.params.invalid'],
        ['POST', `/api/files/${shareId}/trash/restore`, { ids: [] }, 'request.body.invalid'],
        ['POST', `/api/files/${shareId}/trash/restore`, { ids: [1], onConflict: 'merge' }, 'request.body.invalid'],
        ['POST', `/api/files/${shareId}/trash/delete`, { ids: ['one'] }, 'request.body.invalid'],
        ['POST', `/api/files/${shareId}/trash/delete`, { ids: [1, 1] }, 'request.body.invalid'],
        ['POST', `/api/files/x/trash/empty`, undefined, 'request.params.invalid'],
        ['PUT', `/api/shares/${shareId}/trash`, { retentionDays: 3651 }, 'request.body.invalid'],
      ];
      for (const [method, url, body, code] of cases) {
        const res = await admin.request(method, url, { body });
        expect(res.status, `${method} ${url}`).to.equal(400);
        expect((await res.json()).code, `${method} ${url}`).to.equal(code);
      }
    });

    it('keeps the retention setting for administrators: 401 and 403 on PUT /api/shares/{id}/trash', async () => {
      const anonymous = await box.client().request('PUT', `/api/shares/${shareId}/trash`, { body: { retentionDays: 1 } });
      expect(anonymous.status).to.equal(401);
      await expectProblem(reader.api.shares.setTrash({ params: { shareId }, body: { retentionDays: 1 } }), 'auth.permission.denied', 403);
    });
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

/**
 * Pages after the first come from a per-daemon snapshot of the folder (listing-cache.ts).
 * These check that the snapshot never hides a change: one made through the API (the write
 * hook) or one made from the shell (the folder's own mtime and ctime).
 */
describe('files: paging a big folder', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  const names = Array.from({ length: 30 }, (_, i) => `f${i + 1}.txt`);

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'Paging'));
    for (const sub of ['api', 'shell', 'sizes']) {
      mkdirSync(path.join(folder, sub));
      names.forEach((n, i) => writeFileSync(path.join(folder, sub, n), 'x'.repeat(i)));
    }
    // The daemon keeps no snapshot of a folder changed in the last two seconds (coarse file system clocks).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  const page = (sub: string, cursor?: string, sort: 'name' | 'size' = 'name') =>
    admin.api.files.list({ params: { shareId }, query: { path: sub, sort, limit: 10, ...(cursor ? { cursor } : {}) } });

  it('shows a file uploaded through the API on the next request of the same page', async () => {
    const first = await page('api');
    const second = await page('api', first.nextCursor as string);
    expect(second.items.map((e) => e.name)).to.deep.equal(names.slice(10, 20));
    // Asked again: served from the snapshot, the same entries.
    expect((await page('api', first.nextCursor as string)).items.map((e) => e.name)).to.deep.equal(names.slice(10, 20));
    const res = await admin.request('PUT', `/api/files/${shareId}/content?path=${encodeURIComponent('api/f15b.txt')}`, { body: 'new' });
    expect(res.status).to.equal(201);
    const again = await page('api', first.nextCursor as string);
    expect(again.items.map((e) => e.name)).to.deep.equal([
      'f11.txt',
      'f12.txt',
      'f13.txt',
      'f14.txt',
      'f15.txt',
      'f15b.txt',
      'f16.txt',
      'f17.txt',
      'f18.txt',
      'f19.txt',
    ]);
    // A new folder through the API as well, and the walk to the end sees everything once.
    await admin.api.files.createFolder({ params: { shareId }, body: { path: 'api/f25 folder' } });
    const seen: string[] = [];
    let cursor: string | null = first.nextCursor;
    while (cursor) {
      const p = await page('api', cursor);
      seen.push(...p.items.map((e) => e.name));
      cursor = p.nextCursor;
    }
    expect(seen).to.have.length(22);
    expect(seen).to.include.members(['f15b.txt', 'f25 folder']);
  });

  it('shows a file created from the shell on the next request of the same page', async () => {
    const first = await page('shell');
    const cursor = first.nextCursor as string;
    expect((await page('shell', cursor)).items.map((e) => e.name)).to.deep.equal(names.slice(10, 20));
    expect((await page('shell', cursor)).items.map((e) => e.name)).to.deep.equal(names.slice(10, 20));
    writeFileSync(path.join(folder, 'shell', 'f12a.txt'), 'from the shell');
    const again = await page('shell', cursor);
    expect(again.items.map((e) => e.name)).to.deep.equal([
      'f11.txt',
      'f12.txt',
      'f12a.txt',
      'f13.txt',
      'f14.txt',
      'f15.txt',
      'f16.txt',
      'f17.txt',
      'f18.txt',
      'f19.txt',
    ]);
  });

  it('pages by size from the snapshot with fresh entries and continuing cursors', async () => {
    const first = await page('sizes', undefined, 'size');
    expect(first.items.map((e) => e.size)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const second = await page('sizes', first.nextCursor as string, 'size');
    expect(second.items.map((e) => e.size)).to.deep.equal([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const third = await page('sizes', second.nextCursor as string, 'size');
    expect(third.items.map((e) => e.name)).to.deep.equal(names.slice(20, 30));
    expect(third.nextCursor).to.equal(null);
  });
});

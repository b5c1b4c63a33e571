import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';
import { tempEntries } from '../helpers/file-operations.ts';
import { isFinished } from '../helpers/jobs.ts';
import { swapFor } from '../helpers/symlink-swap.ts';

/**
 * Issue 11's attack: a share user with SFTP swaps the folder `a` for a link out of the share
 * in a tight loop (rename, symlink, unlink, rename) while the daemon serves requests on
 * `a/...`. Path checks that look a name up twice are won by the swap a few times in ten
 * thousand; walking by descriptors must make every one of them miss.
 */
const raceMs = 20_000;

/** Every file below a folder with its content (links not followed). */
function contents(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true, encoding: 'utf8' })) {
    if (entry.isFile())
      out.set(path.relative(folder, path.join(entry.parentPath, entry.name)), readFileSync(path.join(entry.parentPath, entry.name), 'latin1'));
  }
  return out;
}

describe('files: a folder swapped for a link during requests never leads out of the share', function () {
  this.timeout(raceMs + 60_000);
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  let outside: string;
  const canary = `CANARY-${process.pid}-${Date.now()}`;

  before(async function () {
    if (process.getuid?.() !== 0) throw new Error('This test reproduces an attack on a box, where the daemon is root: run the suite as root (CI does).');
    box = await startTestDaemon();
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'Race'));
    outside = tempFolder('cellar-race-outside-');
    // The outside folder mirrors the names used inside, so a followed path finds something there.
    for (const name of ['passwd', 'ren', 'only-outside.txt']) writeFileSync(path.join(outside, name), canary);
    mkdirSync(path.join(folder, 'a'));
    writeFileSync(path.join(folder, 'a', 'passwd'), 'inside');
    writeFileSync(path.join(folder, 'a', 'ren'), 'inside');
  });
  after(async () => {
    await box?.close();
    removeTempFolders();
  });

  it('reads no byte from outside and writes nothing there while downloads, uploads, listings, renames and copies race the swap', async () => {
    const before = contents(outside);
    const seen = { downloads: 0, uploads: 0, listings: 0, renames: 0, copies: 0, refused: 0 };
    const leaks: string[] = [];
    const q = (p: string) => `path=${encodeURIComponent(p)}`;
    const until = Date.now() + raceMs;
    const swapping = swapFor(folder, outside, raceMs);

    const loop = async (fn: (i: number) => Promise<void>) => {
      for (let i = 0; Date.now() < until; i++) await fn(i);
    };
    const refused = (res: Response) => {
      if (res.status >= 500) leaks.push(`${res.status} to ${res.url.replace(/^.*\/api/, '/api')}`);
      if (!res.ok) seen.refused++;
      return !res.ok;
    };
    await Promise.all([
      loop(async () => {
        const res = await admin.request('GET', `/api/files/${shareId}/content?${q('a/passwd')}`);
        const body = await res.text();
        if (refused(res)) return;
        seen.downloads++;
        if (body.includes(canary)) leaks.push('a download returned the outside file');
      }),
      loop(async (i) => {
        const res = await admin.request('PUT', `/api/files/${shareId}/content?${q(`a/up-${i}.txt`)}`, {
          body: `upload ${i}`,
          headers: { 'Content-Type': 'application/octet-stream' },
        });
        await res.arrayBuffer();
        if (!refused(res)) seen.uploads++;
      }),
      loop(async () => {
        const res = await admin.request('GET', `/api/files/${shareId}/list?${q('a')}`);
        const page = (await res.json()) as { items?: { name: string }[] };
        if (refused(res)) return;
        seen.listings++;
        if (page.items?.some((e) => e.name === 'only-outside.txt')) leaks.push('a listing showed the outside folder');
      }),
      // Both directions in turn: an answer lost to the swap leaves the file under either name.
      loop(async (i) => {
        const [from, to] = i % 2 === 0 ? ['ren', 'ren2'] : ['ren2', 'ren'];
        const res = await admin.request('POST', `/api/files/${shareId}/rename`, { body: { path: `a/${from}`, newName: to } });
        await res.arrayBuffer();
        if (!refused(res)) seen.renames++;
      }),
      loop(async () => {
        const res = await admin.request('POST', '/api/files/operations', {
          body: { op: 'copy', sources: [{ shareId, path: 'a/passwd' }], target: { shareId, path: 'a' }, onConflict: 'rename' },
        });
        if (refused(res)) return;
        const job = (await res.json()) as { id: number };
        for (;;) {
          const state = await admin.api.jobs.get({ params: { id: job.id } });
          if (isFinished(state)) {
            if (state.state === 'succeeded') seen.copies++;
            else seen.refused++;
            return;
          }
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    ]);
    const swaps = await swapping;

    // Each kind of request really ran against the swap, thousands of times in all.
    expect(swaps, 'swaps').to.be.greaterThan(1000);
    for (const [kind, count] of Object.entries(seen)) expect(count, `${kind} in ${JSON.stringify(seen)}`).to.be.greaterThan(10);
    expect(leaks).to.deep.equal([]);
    // Nothing was written, renamed or left outside, and no copy brought outside bytes in.
    expect(contents(outside)).to.deep.equal(before);
    for (const [name, text] of contents(folder)) expect(text, name).not.to.include(canary);
    expect(tempEntries(folder)).to.deep.equal([]);
    expect(tempEntries(outside)).to.deep.equal([]);
  });
});

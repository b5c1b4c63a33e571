import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';
import { swapFor } from '../helpers/symlink-swap.ts';

const raceMs = 8000;
const outsideSize = 7777;

/**
 * A listing shows, for a link that leads inside the share, the size and times of what it leads
 * to. Issue 11's swap of the folder on its way (`lnk -> a/x`, `a` swapped for a link out) must
 * never make the listing stat the outside file instead.
 */
describe('files: a listing never shows what a link reaches outside the share while a folder is swapped (root)', function () {
  this.timeout(raceMs + 60_000);
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  let outside: string;

  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('This test reproduces an attack on a box, where the daemon is root: run the suite as root (CI does).');
    box = await startTestDaemon();
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'ListRace'));
    outside = tempFolder('cellar-list-race-outside-');
    writeFileSync(path.join(outside, 'x'), 'o'.repeat(outsideSize));
    mkdirSync(path.join(folder, 'a'));
    writeFileSync(path.join(folder, 'a', 'x'), 'inside');
    symlinkSync('a/x', path.join(folder, 'lnk'));
  });
  after(async () => {
    await box?.close();
    removeTempFolders();
  });

  it('stats link targets only inside the share', async () => {
    const until = Date.now() + raceMs;
    const swapping = swapFor(folder, outside, raceMs, 1);
    const seen = { listings: 0, inside: 0, outside: 0 };
    const leaks: string[] = [];
    while (Date.now() < until) {
      const page = await admin.api.files.list({ params: { shareId }, query: { path: '', sort: 'size' } });
      seen.listings++;
      const lnk = page.items.find((e) => e.name === 'lnk');
      if (lnk?.link === 'inside') seen.inside++;
      if (lnk?.link === 'outside') seen.outside++;
      if (lnk?.size === outsideSize) leaks.push(JSON.stringify(lnk));
    }
    expect(await swapping, 'swaps').to.be.greaterThan(300);
    expect(seen.inside, JSON.stringify(seen)).to.be.greaterThan(10);
    expect(seen.outside, `the swap was met: ${JSON.stringify(seen)}`).to.be.greaterThan(0);
    expect(leaks).to.deep.equal([]);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished, runOperation } from '../helpers/file-operations.ts';
import { removeTempFolders, tempFolder } from '../helpers/shares.ts';

/** Every path below a folder, links not followed. */
const tree = (folder: string) => readdirSync(folder, { recursive: true, encoding: 'utf8' });

/**
 * Where a share's recycle bin lives: beside the share (`<parent>/.cellar-trash/<name>`), never in its
 * tree (SFTP would list it), on the share's file system (deleting stays a rename). Each share here
 * is a folder inside a fresh parent, so the bins of different tests never meet.
 */
describe('recycle bin location', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let admin: TestClient;
  const mounts: string[] = [];

  const share = async (name: string, prepare?: (folder: string) => void) => {
    const folder = path.join(tempFolder('cellar-binparent-'), 'share');
    mkdirSync(folder);
    prepare?.(folder);
    const info = await admin.api.shares.create({ body: { name, hostPath: folder } });
    return { id: info.id, folder, bin: path.join(path.dirname(folder), '.cellar-trash', 'share') };
  };
  const trash = (shareId: number, rel: string) => runOperation(admin, { op: 'delete', sources: [{ shareId, path: rel }] });

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    for (const m of mounts) execFileSync('umount', [m]);
    removeTempFolders();
  });

  it('moves a deleted entry beside the share, by rename, and the share tree never holds the bin', async () => {
    const s = await share('Beside');
    mkdirSync(path.join(s.folder, 'docs'));
    writeFileSync(path.join(s.folder, 'docs', 'a.txt'), 'alpha');
    const inode = lstatSync(path.join(s.folder, 'docs', 'a.txt')).ino;
    const job = await trash(s.id, 'docs/a.txt');
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(tree(s.folder)).to.deep.equal(['docs']);
    const [stored] = readdirSync(s.bin);
    expect(readFileSync(path.join(s.bin, stored!), 'utf8')).to.equal('alpha');
    // The same inode: a rename, not a copy.
    expect(lstatSync(path.join(s.bin, stored!)).ino).to.equal(inode);
    expect(lstatSync(s.bin).mode & 0o777).to.equal(0o700);
    expect(lstatSync(s.bin).uid).to.equal(process.geteuid!());
    const [item] = (await admin.api.trash.list({ params: { shareId: s.id }, query: {} })).items;
    const restored = await finished(admin, (await admin.api.trash.restore({ params: { shareId: s.id }, body: { ids: [item!.id] } })).id);
    expect(restored.state).to.equal('succeeded');
    expect(readFileSync(path.join(s.folder, 'docs', 'a.txt'), 'utf8')).to.equal('alpha');
    expect(tree(s.folder).sort()).to.deep.equal(['docs', 'docs/a.txt']);
  });

  it('takes over the entries of an old bin inside the share, so they stay restorable', async () => {
    const s = await share('Old bin', (folder) => {
      mkdirSync(path.join(folder, '.cellar-trash', 'b1e8c2f0-0000-4000-8000-000000000001'), { recursive: true, mode: 0o700 });
      writeFileSync(path.join(folder, '.cellar-trash', 'b1e8c2f0-0000-4000-8000-000000000001', 'inner.txt'), 'kept');
    });
    await box.daemon.db.query(
      'INSERT INTO trash_items (share_id, stored_name, original_path, type, size, deleted_at, deleted_by_id, deleted_by_name) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)',
      { replacements: [s.id, 'b1e8c2f0-0000-4000-8000-000000000001', 'old/folder', 'folder', 4, new Date().toISOString(), 'admin'] },
    );
    const [item] = (await admin.api.trash.list({ params: { shareId: s.id }, query: {} })).items;
    expect(item).to.deep.include({ originalPath: 'old/folder', type: 'folder' });
    const job = await finished(admin, (await admin.api.trash.restore({ params: { shareId: s.id }, body: { ids: [item!.id] } })).id);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(readFileSync(path.join(s.folder, 'old', 'folder', 'inner.txt'), 'utf8')).to.equal('kept');
    expect(existsSync(path.join(s.folder, '.cellar-trash'))).to.equal(false);
    expect(readdirSync(s.bin)).to.deep.equal([]);
  });

  it('moves old entries on the next delete too, keeping their stored names', async () => {
    const s = await share('Old bin 2', (folder) => {
      mkdirSync(path.join(folder, '.cellar-trash'), { mode: 0o700 });
      writeFileSync(path.join(folder, '.cellar-trash', 'stored-old'), 'old');
      writeFileSync(path.join(folder, 'new.txt'), 'new');
    });
    expect((await trash(s.id, 'new.txt')).state).to.equal('succeeded');
    expect(readdirSync(s.bin)).to.include('stored-old').and.have.length(2);
    expect(tree(s.folder)).to.deep.equal([]);
  });

  it('refuses a bin on another file system than the share with fs.trash.unavailable, moving and copying nothing', async () => {
    // The share folder is a mount point of its own (as a development host folder may be): its bin would be on the parent's file system.
    const s = await share('Mounted', (folder) => {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'cellar-test', folder]);
      mounts.push(folder);
      writeFileSync(path.join(folder, 'big.bin'), 'data');
    });
    const err = await expectProblem(trash(s.id, 'big.bin'), 'fs.trash.unavailable', 409);
    expect(err.problem.params).to.deep.equal({ reason: 'otherDevice' });
    await expectProblem(admin.api.trash.empty({ params: { shareId: s.id } }), 'fs.trash.unavailable', 409);
    expect(readFileSync(path.join(s.folder, 'big.bin'), 'utf8')).to.equal('data');
    expect(readdirSync(s.bin)).to.deep.equal([]);
    // Deleting for good needs no bin.
    expect((await runOperation(admin, { op: 'delete', sources: [{ shareId: s.id, path: 'big.bin' }], permanent: true })).state).to.equal('succeeded');
  });

  it("refuses a host folder inside a bin folder as a share: it would reach into other shares' bins", async () => {
    const parent = tempFolder('cellar-binparent-');
    mkdirSync(path.join(parent, '.cellar-trash', 'other'), { recursive: true });
    for (const hostPath of [path.join(parent, '.cellar-trash'), path.join(parent, '.cellar-trash', 'other')]) {
      const err = await expectProblem(admin.api.shares.create({ body: { name: 'In a bin', hostPath } }), 'fs.share.folder_invalid', 400);
      expect(err.problem.params).to.deep.equal({ reason: 'recycleBin' });
    }
  });

  it('refuses a link planted where the bin goes and never follows it', async () => {
    const elsewhere = tempFolder('cellar-elsewhere-');
    const s = await share('Planted', (folder) => {
      mkdirSync(path.join(path.dirname(folder), '.cellar-trash'), { mode: 0o700 });
      symlinkSync(elsewhere, path.join(path.dirname(folder), '.cellar-trash', 'share'));
      writeFileSync(path.join(folder, 'x.txt'), 'x');
    });
    const err = await expectProblem(trash(s.id, 'x.txt'), 'fs.trash.unavailable', 409);
    expect(err.problem.params).to.deep.equal({ reason: 'notOwnFolder' });
    expect(readdirSync(elsewhere)).to.deep.equal([]);
    expect(existsSync(path.join(s.folder, 'x.txt'))).to.equal(true);
    rmSync(s.bin);
  });
});

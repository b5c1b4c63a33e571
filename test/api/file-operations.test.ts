import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { FileOperationResult } from '../../shared/src/api/files/operations.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { TopicEvent } from '../../shared/src/topics.ts';
import { expectProblem, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished, runOperation, tempEntries, twoShareBox, type ShareFolder } from '../helpers/file-operations.ts';
import { connectSocket } from '../helpers/socket.ts';
import { photo } from '../helpers/images.ts';
import { sleep } from '../helpers/jobs.ts';

const resultOf = (job: Job) => job.result as unknown as FileOperationResult;
const mb = 1024 * 1024;

describe('file operations', function () {
  this.timeout(60_000);
  let fixture: Awaited<ReturnType<typeof twoShareBox>>;
  let box: TestDaemon;
  let admin: TestClient;
  let a: ShareFolder;
  let b: ShareFolder;
  let outside: string;
  const at = (share: ShareFolder, rel: string) => fixture.at(share, rel);
  const write = (share: ShareFolder, rel: string, content: string | Buffer) => fixture.write(share, rel, content);
  const read = (share: ShareFolder, rel: string) => fixture.read(share, rel);
  const src = (rel: string, share = a) => fixture.src(rel, share);

  before(async () => {
    fixture = await twoShareBox();
    ({ box, admin, a, b, outside } = fixture);
  });
  after(() => fixture.close());

  describe('copy', () => {
    it('copies a file and a folder tree into a folder, keeping the source', async () => {
      write(a, 'c1/report.txt', 'report');
      write(a, 'c1/tree/x/deep.txt', 'deep');
      mkdirSync(at(a, 'c1/into'));
      const job = await runOperation(admin, { op: 'copy', sources: [src('c1/report.txt'), src('c1/tree')], target: src('c1/into') });
      expect(job.state).to.equal('succeeded');
      expect(job.kind).to.equal('files.operation');
      expect(read(a, 'c1/into/report.txt')).to.equal('report');
      expect(read(a, 'c1/into/tree/x/deep.txt')).to.equal('deep');
      expect(read(a, 'c1/report.txt')).to.equal('report');
      expect(job.progress).to.deep.equal({ done: 10, total: 10, unit: 'bytes' });
      expect(resultOf(job).entries.map((e) => [e.outcome, e.target?.path])).to.deep.equal([
        ['copied', 'c1/into/report.txt'],
        ['copied', 'c1/into/tree'],
      ]);
      expect(tempEntries(a.folder)).to.deep.equal([]);
    });

    it('copies across shares', async () => {
      write(a, 'c2/photo.jpg', 'jpeg bytes');
      const job = await runOperation(admin, { op: 'copy', sources: [src('c2/photo.jpg')], target: src('', b) });
      expect(job.state).to.equal('succeeded');
      expect(read(b, 'photo.jpg')).to.equal('jpeg bytes');
      expect(resultOf(job).entries[0]?.target).to.deep.equal({ shareId: b.id, path: 'photo.jpg' });
    });

    it("gives copies the target's rights (its default ACL), not the source's narrower mode", async () => {
      write(a, 'c9/private.txt', 'mine');
      write(a, 'c9/tool.sh', '#!/bin/sh\n');
      mkdirSync(at(a, 'c9/dir'));
      chmodSync(at(a, 'c9/private.txt'), 0o600);
      chmodSync(at(a, 'c9/tool.sh'), 0o700);
      chmodSync(at(a, 'c9/dir'), 0o700);
      // What the file services put on a share's tree: a default ACL granting a user read and write.
      mkdirSync(at(b, 'c9'));
      execFileSync('setfacl', ['-d', '-m', 'u:nobody:rwX', at(b, 'c9')]);
      const job = await runOperation(admin, { op: 'copy', sources: ['private.txt', 'tool.sh', 'dir'].map((n) => src(`c9/${n}`)), target: src('c9', b) });
      expect(job.state).to.equal('succeeded');
      const acl = (rel: string) => execFileSync('getfacl', ['-cp', at(b, rel)], { encoding: 'utf8' });
      expect(acl('c9/private.txt'))
        .to.match(/^user:nobody:rwx\t#effective:rw-$/m)
        .and.match(/^mask::rw-$/m);
      expect(acl('c9/tool.sh')).to.match(/^mask::rwx$/m);
      expect(acl('c9/dir'))
        .to.match(/^user:nobody:rwx$/m)
        .and.match(/^mask::rwx$/m);
    });

    it('refuses to copy or move a folder into itself or below itself', async () => {
      write(a, 'c3/self/inner/f.txt', 'f');
      for (const op of ['copy', 'move'] as const) {
        for (const target of ['c3/self', 'c3/self/inner']) {
          const err = await expectProblem(
            admin.api.fileOperations.run({ body: { op, sources: [src('c3/self')], target: src(target) } }),
            'fs.operation.into_itself',
            409,
          );
          expect(err.problem.params).to.deep.equal({ path: 'c3/self' });
        }
      }
    });

    it('refuses the share itself as a source', async () => {
      await expectProblem(admin.api.fileOperations.run({ body: { op: 'copy', sources: [src('')], target: src('', b) } }), 'fs.path.invalid', 400);
    });
  });

  describe('conflict policies', () => {
    beforeEach(() => {
      rmSync(at(a, 'k'), { recursive: true, force: true });
      write(a, 'k/src/a.txt', 'new a');
      write(a, 'k/src/.env', 'new env');
      write(a, 'k/src/docs/one.txt', 'new one');
      write(a, 'k/src/docs/sub/two.txt', 'new two');
      write(a, 'k/src/docs/added.txt', 'added');
      write(a, 'k/dst/a.txt', 'old a');
      write(a, 'k/dst/.env', 'old env');
      write(a, 'k/dst/docs/one.txt', 'old one');
      write(a, 'k/dst/docs/sub/two.txt', 'old two');
      write(a, 'k/dst/docs/kept.txt', 'kept');
    });
    const sources = () => [src('k/src/a.txt'), src('k/src/.env'), src('k/src/docs')];

    it('fail (the default) fails the job with fs.entry.exists naming the path, before writing anything', async () => {
      write(a, 'k/src/fresh.txt', 'fresh');
      const job = await runOperation(admin, { op: 'copy', sources: [src('k/src/fresh.txt'), ...sources()], target: src('k/dst') });
      expect(job.state).to.equal('failed');
      expect(job.error?.code).to.equal('fs.entry.exists');
      expect(job.error?.params).to.deep.equal({ name: 'k/dst/a.txt' });
      expect(existsSync(at(a, 'k/dst/fresh.txt'))).to.equal(false);
      expect(read(a, 'k/dst/a.txt')).to.equal('old a');
    });

    it('skip leaves taken names alone, files and folders, and reports them', async () => {
      write(a, 'k/src/fresh.txt', 'fresh');
      const job = await runOperation(admin, { op: 'copy', sources: [...sources(), src('k/src/fresh.txt')], target: src('k/dst'), onConflict: 'skip' });
      expect(job.state).to.equal('succeeded');
      expect(read(a, 'k/dst/a.txt')).to.equal('old a');
      expect(read(a, 'k/dst/docs/one.txt')).to.equal('old one');
      expect(existsSync(at(a, 'k/dst/docs/added.txt'))).to.equal(false);
      expect(read(a, 'k/dst/fresh.txt')).to.equal('fresh');
      expect(resultOf(job).skipped).to.deep.equal([
        { shareId: a.id, path: 'k/dst/a.txt', reason: 'exists' },
        { shareId: a.id, path: 'k/dst/.env', reason: 'exists' },
        { shareId: a.id, path: 'k/dst/docs', reason: 'exists' },
      ]);
      expect(resultOf(job).entries.map((e) => e.outcome)).to.deep.equal(['skipped', 'skipped', 'skipped', 'copied']);
      expect(job.progress?.done).to.equal(job.progress?.total);
    });

    it('overwrite replaces files and merges folders entry by entry', async () => {
      const job = await runOperation(admin, { op: 'copy', sources: sources(), target: src('k/dst'), onConflict: 'overwrite' });
      expect(job.state).to.equal('succeeded');
      expect(read(a, 'k/dst/a.txt')).to.equal('new a');
      expect(read(a, 'k/dst/.env')).to.equal('new env');
      expect(read(a, 'k/dst/docs/one.txt')).to.equal('new one');
      expect(read(a, 'k/dst/docs/sub/two.txt')).to.equal('new two');
      expect(read(a, 'k/dst/docs/added.txt')).to.equal('added');
      expect(read(a, 'k/dst/docs/kept.txt')).to.equal('kept');
      expect(tempEntries(a.folder)).to.deep.equal([]);
    });

    it('overwrite never swaps a folder for a file', async () => {
      write(a, 'k/src2/docs', 'a file named docs');
      const job = await runOperation(admin, { op: 'copy', sources: [src('k/src2/docs')], target: src('k/dst'), onConflict: 'overwrite' });
      expect(job.state).to.equal('failed');
      expect(job.error?.code).to.equal('fs.entry.is_folder');
      expect(statSync(at(a, 'k/dst/docs')).isDirectory()).to.equal(true);
    });

    it('rename gives the next free "name (n).ext" to files and folders', async () => {
      const first = await runOperation(admin, { op: 'copy', sources: sources(), target: src('k/dst'), onConflict: 'rename' });
      expect(first.state).to.equal('succeeded');
      const second = await runOperation(admin, { op: 'copy', sources: [src('k/src/a.txt')], target: src('k/dst'), onConflict: 'rename' });
      expect(resultOf(first).entries.map((e) => e.target?.path)).to.deep.equal(['k/dst/a (2).txt', 'k/dst/.env (2)', 'k/dst/docs (2)']);
      expect(resultOf(second).entries[0]?.target?.path).to.equal('k/dst/a (3).txt');
      expect(read(a, 'k/dst/a.txt')).to.equal('old a');
      expect(read(a, 'k/dst/a (2).txt')).to.equal('new a');
      expect(read(a, 'k/dst/docs (2)/sub/two.txt')).to.equal('new two');
      expect(read(a, 'k/dst/docs/one.txt')).to.equal('old one');
    });

    it('applies the same policies to moves: overwrite merges and removes the emptied source', async () => {
      const job = await runOperation(admin, { op: 'move', sources: sources(), target: src('k/dst'), onConflict: 'overwrite' });
      expect(job.state).to.equal('succeeded');
      expect(read(a, 'k/dst/docs/sub/two.txt')).to.equal('new two');
      expect(read(a, 'k/dst/docs/kept.txt')).to.equal('kept');
      expect(readdirSync(at(a, 'k/src'))).to.deep.equal([]);
    });
  });

  describe('progress and cancel', () => {
    it('reports byte progress on jobs/<id>', async () => {
      const file = at(a, 'p/big.bin');
      write(a, 'p/big.bin', '');
      truncateSync(file, 200 * mb);
      mkdirSync(at(a, 'p/out'));
      const socket = await connectSocket(box.url, admin);
      try {
        const job = await admin.api.fileOperations.run({ body: { op: 'copy', sources: [src('p/big.bin')], target: src('p/out') } });
        const ack = await socket.subscribe(`jobs/${job.id}`);
        expect(ack.ok).to.equal(true);
        const done = await finished(admin, job.id);
        expect(done.state).to.equal('succeeded');
        expect(done.progress).to.deep.equal({ done: 200 * mb, total: 200 * mb, unit: 'bytes' });
        const seen = (socket.events as TopicEvent<Job>[]).filter((e) => e.topic === `jobs/${job.id}`).map((e) => e.data.progress);
        const partial = seen.filter((p) => p !== null && p.unit === 'bytes' && p.total === 200 * mb && p.done > 0 && p.done < p.total);
        expect(partial.length, JSON.stringify(seen)).to.be.greaterThan(0);
        expect(statSync(at(a, 'p/out/big.bin')).size).to.equal(200 * mb);
      } finally {
        socket.close();
      }
    });

    it('cancel mid-copy stops promptly and leaves neither a partial file nor a temporary one', async () => {
      write(a, 'q/huge.bin', '');
      truncateSync(at(a, 'q/huge.bin'), 1024 * mb);
      mkdirSync(at(a, 'q/out'));
      const socket = await connectSocket(box.url, admin);
      try {
        const job = await admin.api.fileOperations.run({ body: { op: 'copy', sources: [src('q/huge.bin')], target: src('q/out') } });
        await socket.subscribe(`jobs/${job.id}`);
        for (;;) {
          const event = (await socket.nextEvent(`jobs/${job.id}`, 10_000)) as TopicEvent<Job>;
          if ((event.data.progress?.done ?? 0) > 0) break;
        }
        const asked = Date.now();
        await admin.api.jobs.cancel({ params: { id: job.id } });
        const ended = await finished(admin, job.id);
        expect(ended.state).to.equal('cancelled');
        expect(Date.now() - asked).to.be.lessThan(3000);
        expect(ended.progress!.done).to.be.lessThan(1024 * mb);
        expect(readdirSync(at(a, 'q/out'))).to.deep.equal([]);
        expect(tempEntries(a.folder)).to.deep.equal([]);
      } finally {
        socket.close();
      }
    });
  });

  describe('move', () => {
    it('is a rename within one file system: same inode, in one share and across shares', async () => {
      write(a, 'm/file.txt', 'move me');
      write(a, 'm/dir/inner.txt', 'inner');
      mkdirSync(at(a, 'm/to'));
      const inode = statSync(at(a, 'm/file.txt')).ino;
      const dirInode = statSync(at(a, 'm/dir')).ino;
      const job = await runOperation(admin, { op: 'move', sources: [src('m/file.txt'), src('m/dir')], target: src('m/to') });
      expect(job.state).to.equal('succeeded');
      expect(resultOf(job).entries.map((e) => e.outcome)).to.deep.equal(['moved', 'moved']);
      expect(statSync(at(a, 'm/to/file.txt')).ino).to.equal(inode);
      expect(statSync(at(a, 'm/to/dir')).ino).to.equal(dirInode);
      expect(existsSync(at(a, 'm/file.txt'))).to.equal(false);
      const across = await runOperation(admin, { op: 'move', sources: [src('m/to/file.txt')], target: src('', b) });
      expect(across.state).to.equal('succeeded');
      expect(statSync(at(b, 'file.txt')).ino).to.equal(inode);
      expect(existsSync(at(a, 'm/to/file.txt'))).to.equal(false);
    });

    it('copies and then removes the source across file systems (a tmpfs of its own against the temp folder)', async () => {
      // A tmpfs mounted for the test (root): /dev/shm is a system tree, which no share may be in.
      const shm = mkdtempSync(path.join(tmpdir(), 'cellar-tmpfs-share-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0755', 'tmpfs', shm]);
      try {
        const share = await admin.api.shares.create({ body: { name: 'Memory', hostPath: shm } });
        const c = { id: share.id, folder: shm };
        write(a, 'x/dir/one.txt', 'one');
        write(a, 'x/dir/sub/two.txt', 'two');
        const job = await runOperation(admin, { op: 'move', sources: [src('x/dir')], target: src('', c) });
        expect(job.state).to.equal('succeeded');
        expect(statSync(at(c, 'dir')).dev).to.not.equal(statSync(a.folder).dev);
        expect(read(c, 'dir/sub/two.txt')).to.equal('two');
        expect(existsSync(at(a, 'x/dir'))).to.equal(false);
        expect(job.progress).to.deep.equal({ done: 6, total: 6, unit: 'bytes' });
      } finally {
        execFileSync('umount', [shm]);
        rmSync(shm, { recursive: true, force: true });
      }
    });
  });

  describe('delete', () => {
    it('moves entries into the recycle bin, or removes them for good when permanent', async () => {
      write(a, 'd/binned.txt', 'binned');
      write(a, 'd/gone.txt', 'gone');
      const trashed = await runOperation(admin, { op: 'delete', sources: [src('d/binned.txt')] });
      expect(trashed.state).to.equal('succeeded');
      expect(trashed.progress).to.deep.equal({ done: 1, total: 1, unit: 'items' });
      expect(resultOf(trashed).entries[0]?.outcome).to.equal('trashed');
      expect(existsSync(at(a, 'd/binned.txt'))).to.equal(false);
      // The bin lies beside the share, outside its tree: <parent>/.cellar-trash/<share folder name>.
      const binFolder = path.join(path.dirname(a.folder), '.cellar-trash', path.basename(a.folder));
      expect(readdirSync(binFolder).some((name) => readFileSync(path.join(binFolder, name), 'utf8') === 'binned')).to.equal(true);
      expect(existsSync(at(a, '.cellar-trash'))).to.equal(false);
      const page = await admin.api.trash.list({ params: { shareId: a.id }, query: {} });
      expect(page.items.map((i) => i.originalPath)).to.include('d/binned.txt');

      const removed = await runOperation(admin, { op: 'delete', sources: [src('d/gone.txt')], permanent: true });
      expect(resultOf(removed).entries[0]?.outcome).to.equal('deleted');
      expect(existsSync(at(a, 'd/gone.txt'))).to.equal(false);
      expect((await admin.api.trash.list({ params: { shareId: a.id }, query: {} })).items.map((i) => i.originalPath)).to.not.include('d/gone.txt');
    });

    it('drops the cached thumbnails of a deleted or moved entry', async () => {
      await photo(320, 240).png().toFile(at(a, 'th-pic.png'));
      const ready = async (p: string) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const states = await admin.api.thumbnails.states({ params: { shareId: a.id }, body: { paths: [p] } });
          if (states.items[0]?.state === 'ready') return;
          if (Date.now() > deadline) throw new Error(`no thumbnail of ${p}: ${JSON.stringify(states.items)}`);
          await sleep(100);
        }
      };
      const rowsFor = async (p: string) =>
        (await box.daemon.db.query('SELECT id FROM thumbnails WHERE share_id = ? AND path = ?', { replacements: [a.id, p] }))[0].length;
      await ready('th-pic.png');
      expect(await rowsFor('th-pic.png')).to.be.greaterThan(0);
      mkdirSync(at(a, 'th'));
      const moved = await runOperation(admin, { op: 'move', sources: [src('th-pic.png')], target: src('th') });
      expect(moved.state).to.equal('succeeded');
      expect(await rowsFor('th-pic.png')).to.equal(0);
      await ready('th/th-pic.png');
      const job = await runOperation(admin, { op: 'delete', sources: [src('th')] });
      expect(job.state).to.equal('succeeded');
      expect(await rowsFor('th/th-pic.png')).to.equal(0);
    });

    it('deletes a link itself, never what it points to', async () => {
      symlinkSync(path.join(outside, 'secret.txt'), at(a, 'd-link'));
      const job = await runOperation(admin, { op: 'delete', sources: [src('d-link')], permanent: true });
      expect(job.state).to.equal('succeeded');
      expect(existsSync(at(a, 'd-link'))).to.equal(false);
      expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).to.equal('top secret');
    });
  });
});

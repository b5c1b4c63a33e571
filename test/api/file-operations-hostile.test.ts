import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { FileOperationRequest, FileOperationResult } from '../../shared/src/api/files/operations.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import { expectProblem, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { runOperation, twoShareBox, type ShareFolder } from '../helpers/file-operations.ts';
import { insertUser } from '../helpers/users.ts';

const resultOf = (job: Job) => job.result as unknown as FileOperationResult;

/** File operations against what must never pass: hostile paths, links out of a share, and users without the right. */
describe('file operations: hostile input and access', function () {
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

  describe('hostile paths and links', () => {
    before(() => {
      write(a, 'h/ok.txt', 'ok');
      symlinkSync(outside, at(a, 'h-out'));
      symlinkSync(path.join(outside, 'secret.txt'), at(a, 'h/secret-link'));
    });
    const table: [string, string][] = [
      ['../secret.txt', 'fs.path.invalid'],
      ['h/../../secret.txt', 'fs.path.invalid'],
      ['/etc', 'fs.path.invalid'],
      ['h\\..\\..', 'fs.path.invalid'],
      // Control characters are refused by the request layer for every body before any schema.
      ['h/a\0b', 'request.body.invalid'],
      ['h//ok.txt', 'fs.path.invalid'],
      ['.cellar-trash', 'fs.path.reserved'],
      ['h/.cellar-upload-x', 'fs.path.reserved'],
      ['h-out/secret.txt', 'fs.path.outside_share'],
    ];
    for (const [hostile, code] of table) {
      it(`refuses ${JSON.stringify(hostile)} as a source and as a target with ${code}`, async () => {
        const bodies: FileOperationRequest[] = [
          { op: 'copy', sources: [src(hostile)], target: src('h') },
          { op: 'move', sources: [src(hostile)], target: src('h') },
          { op: 'delete', sources: [src(hostile)] },
          { op: 'copy', sources: [src('h/ok.txt')], target: src(hostile) },
          { op: 'move', sources: [src('h/ok.txt')], target: src(hostile) },
        ];
        for (const body of bodies) await expectProblem(admin.api.fileOperations.run({ body }), code);
        expect(read(a, 'h/ok.txt')).to.equal('ok');
        expect(readdirSync(outside)).to.deep.equal(['secret.txt']);
      });
    }

    it('refuses a symbolic link that leads out of the share as the target folder', async () => {
      await expectProblem(
        admin.api.fileOperations.run({ body: { op: 'copy', sources: [src('h/ok.txt')], target: src('h-out') } }),
        'fs.path.outside_share',
        403,
      );
      expect(readdirSync(outside)).to.deep.equal(['secret.txt']);
    });

    it('copies links that stay inside the target share as links and leaves out the others', async () => {
      write(a, 'l/tree/data.txt', 'data');
      symlinkSync('data.txt', at(a, 'l/tree/near'));
      symlinkSync(path.join(outside, 'secret.txt'), at(a, 'l/tree/far'));
      symlinkSync('../../../../../../../../etc/passwd', at(a, 'l/tree/climb'));
      mkdirSync(at(a, 'l/out'));
      const job = await runOperation(admin, { op: 'copy', sources: [src('l/tree'), src('h/secret-link')], target: src('l/out') });
      expect(job.state).to.equal('succeeded');
      expect(readlinkSync(at(a, 'l/out/tree/near'))).to.equal('data.txt');
      expect(read(a, 'l/out/tree/near')).to.equal('data');
      expect(existsSync(at(a, 'l/out/tree/far'))).to.equal(false);
      expect(() => lstatSync(at(a, 'l/out/tree/climb'))).to.throw();
      expect(() => lstatSync(at(a, 'l/out/secret-link'))).to.throw();
      expect(resultOf(job).skipped).to.have.deep.members([
        { shareId: a.id, path: 'l/tree/far', reason: 'linkOutside' },
        { shareId: a.id, path: 'l/tree/climb', reason: 'linkOutside' },
        { shareId: a.id, path: 'h/secret-link', reason: 'linkOutside' },
      ]);
    });

    it('does not let a link to the other share be copied into it as a way out of the source share', async () => {
      symlinkSync(b.folder, at(a, 'l-to-b'));
      const job = await runOperation(admin, { op: 'copy', sources: [src('l-to-b')], target: src('', b) });
      // Pointing at share B is inside B: copied as a link, and B's own folder is what it shows.
      expect(job.state).to.equal('succeeded');
      expect(readlinkSync(at(b, 'l-to-b'))).to.equal(b.folder);
      const intoA = await runOperation(admin, { op: 'copy', sources: [src('l-to-b')], target: src('l/out') });
      expect(resultOf(intoA).skipped).to.deep.equal([{ shareId: a.id, path: 'l-to-b', reason: 'linkOutside' }]);
    });
  });

  describe('access', () => {
    let reader: TestClient;
    let stranger: TestClient;
    before(async () => {
      const readerId = await insertUser(box, 'reader', 'reader-password');
      await insertUser(box, 'stranger', 'stranger-password');
      await admin.api.shares.setGrants({ params: { shareId: a.id }, body: { grants: [{ subjectType: 'user', subjectId: readerId, level: 'read' }] } });
      await admin.api.shares.setGrants({ params: { shareId: b.id }, body: { grants: [{ subjectType: 'user', subjectId: readerId, level: 'readWrite' }] } });
      reader = await box.signIn('reader', 'reader-password');
      stranger = await box.signIn('stranger', 'stranger-password');
      write(a, 'r/doc.txt', 'doc');
    });

    it('lets a reader copy out of a read-only share into a writable one', async () => {
      const job = await runOperation(reader, { op: 'copy', sources: [src('r/doc.txt')], target: src('', b) });
      expect(job.state).to.equal('succeeded');
      expect(job.userId).to.equal(reader.user!.id);
      expect(read(b, 'doc.txt')).to.equal('doc');
    });

    it('refuses a reader moving or deleting from a read-only share, or writing into it', async () => {
      await expectProblem(reader.api.fileOperations.run({ body: { op: 'move', sources: [src('r/doc.txt')], target: src('', b) } }), 'fs.share.read_only', 403);
      await expectProblem(reader.api.fileOperations.run({ body: { op: 'delete', sources: [src('r/doc.txt')] } }), 'fs.share.read_only', 403);
      await expectProblem(reader.api.fileOperations.run({ body: { op: 'copy', sources: [src('doc.txt', b)], target: src('r') } }), 'fs.share.read_only', 403);
      expect(read(a, 'r/doc.txt')).to.equal('doc');
    });

    it('answers fs.share.not_found to a user without a grant, for sources and targets', async () => {
      await expectProblem(
        stranger.api.fileOperations.run({ body: { op: 'copy', sources: [src('r/doc.txt')], target: src('', b) } }),
        'fs.share.not_found',
        404,
      );
      await expectProblem(
        reader.api.fileOperations.run({ body: { op: 'copy', sources: [src('doc.txt', b)], target: { shareId: 999_999, path: '' } } }),
        'fs.share.not_found',
        404,
      );
    });

    it('answers 401 without a session and 400 to bad input', async () => {
      const anonymous = await box.client().request('POST', '/api/files/operations', { body: { op: 'delete', sources: [src('r/doc.txt')] } });
      expect(anonymous.status).to.equal(401);
      expect((await anonymous.json()).code).to.equal('auth.session.required');
      const bad: unknown[] = [
        {},
        { op: 'rename', sources: [src('r/doc.txt')], target: src('') },
        { op: 'copy', sources: [], target: src('') },
        { op: 'copy', sources: [src('r/doc.txt')] },
        { op: 'delete', sources: [src('r/doc.txt')], target: src('') },
        { op: 'copy', sources: [src('r/doc.txt')], target: src(''), onConflict: 'replace' },
        { op: 'copy', sources: [src('r/doc.txt')], target: src(''), permanent: true },
        { op: 'delete', sources: [{ shareId: 'x', path: 'r/doc.txt' }] },
      ];
      for (const body of bad) {
        const res = await admin.request('POST', '/api/files/operations', { body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect((await res.json()).code).to.equal('request.body.invalid');
      }
      expect(read(a, 'r/doc.txt')).to.equal('doc');
    });
  });
});

import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, tempFolder, removeTempFolders } from '../helpers/shares.ts';
import { connectSocket } from '../helpers/socket.ts';

/** Paths that must never reach the file system, with the code each answers. */
const hostile: [string, string][] = [
  ['..', 'fs.path.invalid'],
  ['../secret.txt', 'fs.path.invalid'],
  ['docs/../../secret.txt', 'fs.path.invalid'],
  ['.', 'fs.path.invalid'],
  ['./docs', 'fs.path.invalid'],
  ['docs//a.txt', 'fs.path.invalid'],
  ['docs/', 'fs.path.invalid'],
  ['/etc/passwd', 'fs.path.invalid'],
  ['docs\\..\\..\\secret.txt', 'fs.path.invalid'],
  ['a\\b', 'fs.path.invalid'],
  // Control characters are refused for every request part before any schema: in a query or a body.
  ['docs/a\0.txt', 'request.query.invalid'],
  ['.cellar-trash', 'fs.path.reserved'],
  ['.cellar-trash/anything', 'fs.path.reserved'],
  ['docs/.cellar-upload-123', 'fs.path.reserved'],
];

describe('files: hostile paths', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  let outside: string;

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'Hostile'));
    outside = tempFolder('cellar-outside-');
    writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
    writeFileSync(path.join(path.dirname(folder), 'secret.txt'), 'sibling secret');
    mkdirSync(path.join(folder, 'docs'));
    writeFileSync(path.join(folder, 'docs', 'a.txt'), 'inside');
    symlinkSync(outside, path.join(folder, 'out'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(folder, 'outfile'));
    symlinkSync('/etc/passwd', path.join(folder, 'docs', 'passwd'));
    symlinkSync('docs/a.txt', path.join(folder, 'inlink'));
    symlinkSync('docs', path.join(folder, 'indir'));
    symlinkSync(path.join(folder, 'nowhere'), path.join(folder, 'broken'));
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  const call = (method: string, route: string, query: string, body?: unknown) => admin.request(method, `/api/files/${shareId}/${route}?${query}`, { body });
  const codeOf = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { code: string }).code });

  describe('refused before the file system sees them', () => {
    for (const [p, code] of hostile) {
      it(`${JSON.stringify(p)} answers ${code} on every operation`, async () => {
        const enc = encodeURIComponent(p);
        const answers = [
          await codeOf(await call('GET', 'entry', `path=${enc}`)),
          await codeOf(await call('GET', 'list', `path=${enc}`)),
          await codeOf(await call('GET', 'content', `path=${enc}`)),
          await codeOf(await call('PUT', 'content', `path=${enc}&overwrite=true`, 'payload')),
          await codeOf(await call('POST', 'folders', '', { path: p })),
          await codeOf(await call('POST', 'rename', '', { path: p, newName: 'x' })),
          await codeOf(await call('POST', 'rename', '', { path: 'docs/a.txt', newName: p })),
        ];
        const also = code === 'fs.path.reserved' ? 'fs.path.invalid' : code === 'request.query.invalid' ? 'request.body.invalid' : code;
        for (const a of answers) expect(a.code, p).to.be.oneOf([code, also]);
        expect(answers.every((a) => a.status === 400)).to.equal(true);
        expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).to.equal('top secret');
        expect(readFileSync(path.join(path.dirname(folder), 'secret.txt'), 'utf8')).to.equal('sibling secret');
      });
    }

    it('refuses percent-encoded traversal, which decodes to ..', async () => {
      for (const raw of ['%2e%2e/secret.txt', '%2E%2E%2Fsecret.txt', 'docs%2f..%2f..%2fsecret.txt']) {
        const res = await call('GET', 'content', `path=${raw}`);
        expect(await codeOf(res), raw).to.deep.equal({ status: 400, code: 'fs.path.invalid' });
      }
      // Double encoding arrives as a literal name with % signs: harmless, and absent.
      expect(await codeOf(await call('GET', 'content', 'path=%252e%252e%252fsecret.txt'))).to.deep.equal({ status: 404, code: 'fs.entry.not_found' });
    });

    it('refuses a repeated path parameter (an array)', async () => {
      expect((await codeOf(await call('GET', 'content', 'path=docs&path=..'))).code).to.equal('request.query.invalid');
    });
  });

  describe('symbolic links out of the share are never followed', () => {
    it('lists links and marks where they lead', async () => {
      const page = await admin.api.files.list({ params: { shareId }, query: {} });
      const byName = Object.fromEntries(page.items.map((e) => [e.name, e]));
      expect(byName.out).to.include({ type: 'symlink', link: 'outside' });
      expect(byName.outfile).to.include({ type: 'symlink', link: 'outside' });
      expect(byName.broken).to.include({ type: 'symlink', link: 'broken' });
      expect(byName.inlink).to.include({ type: 'file', link: 'inside', size: 6 });
      expect(byName.indir).to.include({ type: 'folder', link: 'inside' });
    });

    it('refuses reading through them', async () => {
      for (const p of ['outfile', 'out/secret.txt', 'docs/passwd']) {
        expect(await codeOf(await call('GET', 'content', `path=${encodeURIComponent(p)}`)), p).to.deep.equal({ status: 403, code: 'fs.path.outside_share' });
      }
      expect(await codeOf(await call('GET', 'list', 'path=out'))).to.deep.equal({ status: 403, code: 'fs.path.outside_share' });
      expect(await codeOf(await call('GET', 'entry', 'path=out%2Fsecret.txt'))).to.deep.equal({ status: 403, code: 'fs.path.outside_share' });
      expect(await codeOf(await call('GET', 'content', 'path=broken'))).to.deep.equal({ status: 404, code: 'fs.entry.not_found' });
    });

    it('follows links that stay inside the share', async () => {
      expect(await (await call('GET', 'content', 'path=inlink')).text()).to.equal('inside');
      expect(await (await call('GET', 'content', 'path=indir%2Fa.txt')).text()).to.equal('inside');
      expect((await admin.api.files.list({ params: { shareId }, query: { path: 'indir' } })).items.map((e) => e.name)).to.include('a.txt');
    });

    it('refuses writing through them and leaves the outside untouched', async () => {
      expect(await codeOf(await call('PUT', 'content', 'path=out%2Fnew.txt', 'evil'))).to.deep.equal({ status: 403, code: 'fs.path.outside_share' });
      expect(await codeOf(await call('PUT', 'content', 'path=out%2Fsecret.txt&overwrite=true', 'evil'))).to.deep.equal({
        status: 403,
        code: 'fs.path.outside_share',
      });
      expect(await codeOf(await call('PUT', 'content', 'path=outfile&overwrite=true', 'evil'))).to.deep.equal({ status: 403, code: 'fs.path.outside_share' });
      expect(await codeOf(await call('POST', 'folders', '', { path: 'out/newdir' }))).to.deep.equal({ status: 403, code: 'fs.path.outside_share' });
      expect(readdirSync(outside)).to.deep.equal(['secret.txt']);
      expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).to.equal('top secret');
    });

    it('refuses renaming through them', async () => {
      expect(await codeOf(await call('POST', 'rename', '', { path: 'out/secret.txt', newName: 'mine.txt' }))).to.deep.equal({
        status: 403,
        code: 'fs.path.outside_share',
      });
      expect(existsSync(path.join(outside, 'secret.txt'))).to.equal(true);
      expect(existsSync(path.join(outside, 'mine.txt'))).to.equal(false);
    });

    it('refuses the live topic of a folder out of the share', async () => {
      const socket = await connectSocket(box.url, admin);
      try {
        const ack = await socket.subscribe(`files/${shareId}/out`);
        expect(!ack.ok && ack.problem.code).to.equal('fs.path.outside_share');
        const traversal = await socket.subscribe(`files/${shareId}/docs/../..`);
        expect(!traversal.ok && traversal.problem.code).to.equal('fs.path.invalid');
      } finally {
        socket.close();
      }
    });
  });
});

import { readdirSync, readFileSync, utimesSync, writeFileSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

describe('files', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  const q = (p: string, extra = '') => `/api/files/${shareId}/content?path=${encodeURIComponent(p)}${extra}`;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'Files'));
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  describe('listing', () => {
    before(() => {
      mkdirSync(path.join(folder, 'sorted'));
      const names = ['file10.txt', 'File2.txt', 'file1.txt', 'alpha', 'Beta', 'ü-umlaut'];
      names.forEach((n, i) => {
        writeFileSync(path.join(folder, 'sorted', n), 'x'.repeat(i * 10));
        utimesSync(path.join(folder, 'sorted', n), 1_700_000_000 + i * 100, 1_700_000_000 + i * 100);
      });
      mkdirSync(path.join(folder, 'sorted', '.cellar-trash'));
      writeFileSync(path.join(folder, 'sorted', '.cellar-upload-abc'), 'partial');
    });

    it('sorts by name in natural order ignoring case and hides the bin and temporary uploads', async () => {
      const page = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted' } });
      expect(page.items.map((e) => e.name)).to.deep.equal(['alpha', 'Beta', 'file1.txt', 'File2.txt', 'file10.txt', 'ü-umlaut']);
      expect(page).to.include({ path: 'sorted', topic: `files/${shareId}/sorted`, nextCursor: null });
      const desc = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', order: 'desc' } });
      expect(desc.items.map((e) => e.name)).to.deep.equal(['ü-umlaut', 'file10.txt', 'File2.txt', 'file1.txt', 'Beta', 'alpha']);
    });

    it('sorts by size and by modification time', async () => {
      const bySize = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', sort: 'size', order: 'desc' } });
      expect(bySize.items.map((e) => e.size)).to.deep.equal([50, 40, 30, 20, 10, 0]);
      const byTime = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', sort: 'modified' } });
      expect(byTime.items.map((e) => e.name)).to.deep.equal(['file10.txt', 'File2.txt', 'file1.txt', 'alpha', 'Beta', 'ü-umlaut']);
      expect(byTime.items[0]?.modified).to.equal(new Date(1_700_000_000_000).toISOString());
    });

    it('pages with stable cursors that survive entries coming and going', async () => {
      for (const sort of ['name', 'size', 'modified'] as const) {
        const first = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', sort, limit: 2 } });
        expect(first.items).to.have.length(2);
        expect(first.nextCursor).to.be.a('string');
        const all = [...first.items.map((e) => e.name)];
        let cursor = first.nextCursor;
        while (cursor) {
          const page = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', sort, limit: 2, cursor } });
          all.push(...page.items.map((e) => e.name));
          cursor = page.nextCursor;
        }
        expect(all, sort).to.have.length(6);
        expect(new Set(all).size).to.equal(6);
      }
      const first = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', limit: 2 } });
      // An entry before the cursor vanishes: the next page still starts right after the last one seen.
      renameSync(path.join(folder, 'sorted', 'alpha'), path.join(folder, 'alpha-moved'));
      const second = await admin.api.files.list({ params: { shareId }, query: { path: 'sorted', limit: 2, cursor: first.nextCursor as string } });
      expect(second.items.map((e) => e.name)).to.deep.equal(['file1.txt', 'File2.txt']);
      renameSync(path.join(folder, 'alpha-moved'), path.join(folder, 'sorted', 'alpha'));
      await expectProblem(
        admin.api.files.list({ params: { shareId }, query: { path: 'sorted', sort: 'size', cursor: first.nextCursor as string } }),
        'fs.cursor.invalid',
        400,
      );
      await expectProblem(admin.api.files.list({ params: { shareId }, query: { path: 'sorted', cursor: 'garbage!' } }), 'fs.cursor.invalid', 400);
    });

    it('answers entries and refuses listing a file or a missing folder', async () => {
      const entry = await admin.api.files.entry({ params: { shareId }, query: { path: 'sorted/file1.txt' } });
      expect(entry).to.include({ name: 'file1.txt', path: 'sorted/file1.txt', type: 'file', size: 20, link: null });
      expect(await admin.api.files.entry({ params: { shareId }, query: { path: '' } })).to.include({ type: 'folder', path: '' });
      await expectProblem(admin.api.files.list({ params: { shareId }, query: { path: 'sorted/file1.txt' } }), 'fs.entry.not_folder', 409);
      await expectProblem(admin.api.files.list({ params: { shareId }, query: { path: 'nope' } }), 'fs.entry.not_found', 404);
      await expectProblem(admin.api.files.entry({ params: { shareId }, query: { path: 'nope/deeper' } }), 'fs.entry.not_found', 404);
      await expectProblem(admin.api.files.list({ params: { shareId }, query: { limit: 0 } }), 'request.query.invalid', 400);
      await expectProblem(admin.api.files.list({ params: { shareId }, query: { sort: 'color' as never } }), 'request.query.invalid', 400);
    });
  });

  describe('upload', () => {
    it('writes the body and answers the entry with 201', async () => {
      const res = await admin.request('PUT', q('up.bin'), { body: 'hello world', headers: { 'Content-Type': 'application/octet-stream' } });
      expect(res.status).to.equal(201);
      expect(await res.json()).to.include({ name: 'up.bin', size: 11, type: 'file' });
      expect(readFileSync(path.join(folder, 'up.bin'), 'utf8')).to.equal('hello world');
    });

    it('refuses a taken name unless overwrite=true, and never replaces a folder', async () => {
      const again = await admin.request('PUT', q('up.bin'), { body: 'other' });
      expect(again.status).to.equal(409);
      expect((await again.json()).code).to.equal('fs.entry.exists');
      expect(readFileSync(path.join(folder, 'up.bin'), 'utf8')).to.equal('hello world');
      const over = await admin.request('PUT', q('up.bin', '&overwrite=true'), { body: 'replaced' });
      expect(over.status).to.equal(201);
      expect(readFileSync(path.join(folder, 'up.bin'), 'utf8')).to.equal('replaced');
      mkdirSync(path.join(folder, 'a-folder'));
      const folderHit = await admin.request('PUT', q('a-folder', '&overwrite=true'), { body: 'x' });
      expect((await folderHit.json()).code).to.equal('fs.entry.is_folder');
      const noParent = await admin.request('PUT', q('missing/x.bin'), { body: 'x' });
      expect((await noParent.json()).code).to.equal('fs.entry.not_found');
      expect(readdirSync(folder).filter((n) => n.startsWith('.cellar-upload-'))).to.deep.equal([]);
    });

    it('streams a large chunked body', async () => {
      const chunk = new Uint8Array(1024 * 1024).fill(7);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ === 8) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const entry = await admin.api.files.upload({ params: { shareId }, query: { path: 'big.bin' }, body: stream });
      expect(entry.size).to.equal(8 * 1024 * 1024);
    });

    it('leaves nothing behind when the upload is aborted mid-body', async () => {
      const url = new URL(box.url);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: q('aborted.bin'),
        headers: {
          Cookie: admin.cookieHeader(),
          'X-CSRF-Token': admin.csrfToken as string,
          'Content-Length': String(10 * 1024 * 1024),
          'Content-Type': 'application/octet-stream',
        },
      });
      req.on('error', () => undefined);
      req.write(Buffer.alloc(256 * 1024, 1));
      await new Promise((r) => setTimeout(r, 200));
      // The temporary file exists while the body streams...
      expect(readdirSync(folder).some((n) => n.startsWith('.cellar-upload-'))).to.equal(true);
      req.destroy();
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline && readdirSync(folder).some((n) => n.startsWith('.cellar-upload-'))) await new Promise((r) => setTimeout(r, 50));
      // ...and neither it nor the target is left once the client is gone.
      expect(readdirSync(folder).filter((n) => n.startsWith('.cellar-upload-') || n === 'aborted.bin')).to.deep.equal([]);
    });

    it('refuses a declared length beyond the limit with 413 before reading the body', async () => {
      const url = new URL(box.url);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          method: 'PUT',
          path: q('huge.bin'),
          headers: { Cookie: admin.cookieHeader(), 'X-CSRF-Token': admin.csrfToken as string, 'Content-Length': String(2 ** 45) },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write('a few bytes');
      });
      expect(answer.status).to.equal(413);
      expect(JSON.parse(answer.body).code).to.equal('request.body.too_large');
      expect(readdirSync(folder).filter((n) => n.startsWith('.cellar-upload-') || n === 'huge.bin')).to.deep.equal([]);
    });
  });

  describe('folders and rename', () => {
    it('creates folders and refuses taken names', async () => {
      const made = await admin.api.files.createFolder({ params: { shareId }, body: { path: 'made' } });
      expect(made).to.include({ name: 'made', path: 'made', type: 'folder' });
      await expectProblem(admin.api.files.createFolder({ params: { shareId }, body: { path: 'made' } }), 'fs.entry.exists', 409);
      await expectProblem(admin.api.files.createFolder({ params: { shareId }, body: { path: 'up.bin' } }), 'fs.entry.exists', 409);
      await expectProblem(admin.api.files.createFolder({ params: { shareId }, body: { path: 'no/such/parent' } }), 'fs.entry.not_found', 404);
    });

    it('renames files and folders within the folder and never replaces', async () => {
      writeFileSync(path.join(folder, 'made', 'one.txt'), '1');
      writeFileSync(path.join(folder, 'made', 'two.txt'), '2');
      mkdirSync(path.join(folder, 'made', 'sub'));
      const renamed = await admin.api.files.rename({ params: { shareId }, body: { path: 'made/one.txt', newName: 'uno.txt' } });
      expect(renamed).to.include({ name: 'uno.txt', path: 'made/uno.txt' });
      expect(readFileSync(path.join(folder, 'made', 'uno.txt'), 'utf8')).to.equal('1');
      await expectProblem(admin.api.files.rename({ params: { shareId }, body: { path: 'made/uno.txt', newName: 'two.txt' } }), 'fs.entry.exists', 409);
      expect(readFileSync(path.join(folder, 'made', 'two.txt'), 'utf8')).to.equal('2');
      expect(readFileSync(path.join(folder, 'made', 'uno.txt'), 'utf8')).to.equal('1');
      await expectProblem(admin.api.files.rename({ params: { shareId }, body: { path: 'made/sub', newName: 'two.txt' } }), 'fs.entry.exists', 409);
      await expectProblem(admin.api.files.rename({ params: { shareId }, body: { path: 'made/uno.txt', newName: 'sub' } }), 'fs.entry.exists', 409);
      expect((await admin.api.files.rename({ params: { shareId }, body: { path: 'made/sub', newName: 'folder' } })).type).to.equal('folder');
      await expectProblem(admin.api.files.rename({ params: { shareId }, body: { path: 'made/uno.txt', newName: '../escape' } }), 'fs.path.invalid', 400);
      await expectProblem(admin.api.files.rename({ params: { shareId }, body: { path: 'made/absent', newName: 'x' } }), 'fs.entry.not_found', 404);
    });
  });

  describe('live folder topics', () => {
    it('reports creations, changes, renames and deletions made from a shell', async () => {
      mkdirSync(path.join(folder, 'live'));
      writeFileSync(path.join(folder, 'live', 'old.txt'), 'old');
      const socket = await connectSocket(box.url, admin);
      const topic = `files/${shareId}/live`;
      try {
        expect((await socket.subscribe(topic)).ok).to.equal(true);
        await new Promise((r) => setTimeout(r, 100));
        const created = socket.nextEvent(topic);
        writeFileSync(path.join(folder, 'live', 'new.txt'), 'new');
        expect(await created).to.deep.include({ type: 'created' });
        expect((await created).data).to.deep.include({ name: 'new.txt' });
        const changed = socket.nextEvent(topic);
        writeFileSync(path.join(folder, 'live', 'new.txt'), 'newer');
        expect((await changed).type).to.equal('changed');
        const renamed = socket.nextEvent(topic);
        renameSync(path.join(folder, 'live', 'old.txt'), path.join(folder, 'live', 'older.txt'));
        expect((await renamed).type).to.equal('renamed');
        expect((await renamed).data).to.deep.include({ name: 'older.txt', oldName: 'old.txt' });
        const deleted = socket.nextEvent(topic);
        unlinkSync(path.join(folder, 'live', 'new.txt'));
        expect(await deleted).to.deep.include({ type: 'deleted', data: { name: 'new.txt', entry: null } });
      } finally {
        socket.close();
      }
    });

    it('refuses the topic of a share the user may not read', async () => {
      await insertUser(box, 'outsider', 'outsider-password');
      const outsider = await box.signIn('outsider', 'outsider-password');
      const socket = await connectSocket(box.url, outsider);
      try {
        const ack = await socket.subscribe(`files/${shareId}`);
        expect(ack.ok).to.equal(false);
        expect(!ack.ok && ack.problem.code).to.equal('fs.share.not_found');
      } finally {
        socket.close();
      }
    });
  });

  describe('refusals of every route', () => {
    const routes = () =>
      [
        ['GET', `/api/files/${shareId}/entry?path=x`],
        ['GET', `/api/files/${shareId}/list`],
        ['GET', `/api/files/${shareId}/content?path=x`],
        ['PUT', `/api/files/${shareId}/content?path=x`],
        ['POST', `/api/files/${shareId}/folders`],
        ['POST', `/api/files/${shareId}/rename`],
      ] as const;

    it('answers 401 without a session, and fs.share.not_found to a user without a grant', async () => {
      await insertUser(box, 'stranger', 'stranger-password');
      const stranger = await box.signIn('stranger', 'stranger-password');
      const bodies: Record<string, unknown> = { folders: { path: 'x' }, rename: { path: 'x', newName: 'y' } };
      for (const [method, url] of routes()) {
        const body = method === 'GET' ? undefined : method === 'PUT' ? 'data' : bodies[url.split('/').pop() as string];
        const anonymous = await box.client().request(method, url, { body });
        expect(anonymous.status, url).to.equal(401);
        expect((await anonymous.json()).code).to.equal('auth.session.required');
        const res = await stranger.request(method, url, { body });
        expect(res.status, `${method} ${url}`).to.equal(404);
        expect((await res.json()).code).to.equal('fs.share.not_found');
      }
    });

    it('answers 400 to bad input on every route', async () => {
      const cases = [
        ['GET', `/api/files/${shareId}/entry`, undefined, 'request.query.invalid'],
        ['GET', `/api/files/x/list`, undefined, 'request.params.invalid'],
        ['GET', `/api/files/${shareId}/content`, undefined, 'request.query.invalid'],
        ['PUT', `/api/files/${shareId}/content?overwrite=maybe&path=a`, 'x', 'request.query.invalid'],
        ['POST', `/api/files/${shareId}/folders`, {}, 'request.body.invalid'],
        ['POST', `/api/files/${shareId}/rename`, { path: 'a' }, 'request.body.invalid'],
      ] as const;
      for (const [method, url, body, code] of cases) {
        const res = await admin.request(method, url, { body });
        expect(res.status, url).to.equal(400);
        expect((await res.json()).code).to.equal(code);
      }
    });
  });
});

import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

/** Downloads of files and folders from a share: ranges, archives, names and refusals. */
describe('files: download', () => {
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

  describe('download', () => {
    const content = 'abcdefghijklmnopqrstuvwxyz';
    before(() => writeFileSync(path.join(folder, 'letters.txt'), content));

    it('sends a file of several read chunks byte for byte, whole and as a range across chunks', async () => {
      // 1 MiB chunks (send-range.ts): this file ends in a partial fifth one.
      const bytes = Buffer.alloc(4 * 1024 * 1024 + 12_345);
      for (let i = 0; i + 4 <= bytes.length; i += 4) bytes.writeUInt32LE(i, i);
      writeFileSync(path.join(folder, 'chunks.bin'), bytes);
      const whole = await admin.request('GET', q('chunks.bin'));
      expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).to.equal(true);
      const part = await admin.request('GET', q('chunks.bin'), { headers: { Range: 'bytes=1000000-3200000' } });
      expect(part.status).to.equal(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1_000_000, 3_200_001))).to.equal(true);
    });

    it('keeps serving after a client goes away mid-download', async () => {
      writeFileSync(path.join(folder, 'long.bin'), Buffer.alloc(32 * 1024 * 1024, 7));
      const url = new URL(box.url);
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: q('long.bin'), headers: { Cookie: admin.cookieHeader() } });
        req.on('response', (res) => res.once('data', () => (req.destroy(), resolve())));
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
        req.end();
      });
      const after = await admin.request('GET', q('letters.txt'));
      expect(await after.text()).to.equal(content);
    });

    it('sends the file as an attachment with validators and protective headers', async () => {
      const res = await admin.request('GET', q('letters.txt'));
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal(content);
      expect(res.headers.get('content-security-policy')).to.equal("sandbox; frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('accept-ranges')).to.equal('bytes');
      expect(res.headers.get('etag')).to.match(/^"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/);
      expect(res.headers.get('last-modified')).to.equal(statSync(path.join(folder, 'letters.txt')).mtime.toUTCString());
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="letters.txt"; filename*=UTF-8''letters.txt`);
      const inline = await admin.request('GET', q('letters.txt', '&inline=true'));
      expect(inline.headers.get('content-disposition')).to.match(/^inline;/);
      // Shown in place it stays sandboxed (an origin of its own) and may be framed by the desktop only (the PDF preview).
      expect(inline.headers.get('content-security-policy')).to.equal("sandbox; frame-ancestors 'self'");
      expect(inline.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
      expect(inline.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('names non-ASCII files per RFC 6266 with an ASCII fallback', async () => {
      writeFileSync(path.join(folder, 'Größe "ü" 100%.txt'), 'x');
      const res = await admin.request('GET', q('Größe "ü" 100%.txt'));
      expect(res.headers.get('content-disposition')).to.equal(
        `attachment; filename="Gr__e ___ 100_.txt"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%22%C3%BC%22%20100%25.txt`,
      );
    });

    it('answers ranges: single, open-ended, suffix; several give the whole file', async () => {
      const get = (range: string) => admin.request('GET', q('letters.txt'), { headers: { Range: range } });
      const single = await get('bytes=2-4');
      expect(single.status).to.equal(206);
      expect(single.headers.get('content-range')).to.equal('bytes 2-4/26');
      expect(await single.text()).to.equal('cde');
      const open = await get('bytes=20-');
      expect(await open.text()).to.equal('uvwxyz');
      const suffix = await get('bytes=-3');
      expect(suffix.headers.get('content-range')).to.equal('bytes 23-25/26');
      expect(await suffix.text()).to.equal('xyz');
      const bigSuffix = await get('bytes=-100');
      expect(await bigSuffix.text()).to.equal(content);
      const beyondEnd = await get('bytes=24-1000');
      expect(await beyondEnd.text()).to.equal('yz');
      const multiple = await get('bytes=0-1,5-6');
      expect(multiple.status).to.equal(200);
      expect(await multiple.text()).to.equal(content);
      const malformed = await get('bytes=x-y');
      expect(malformed.status).to.equal(200);
    });

    it('answers 416 with the size for ranges outside the file', async () => {
      for (const range of ['bytes=26-', 'bytes=100-200', 'bytes=-0']) {
        const res = await admin.request('GET', q('letters.txt'), { headers: { Range: range } });
        expect(res.status, range).to.equal(416);
        expect(res.headers.get('content-range')).to.equal('bytes */26');
        expect((await res.json()).code).to.equal('fs.range.not_satisfiable');
      }
    });

    it('honours If-Range only while the ETag still matches', async () => {
      const etag = (await admin.request('GET', q('letters.txt'))).headers.get('etag') as string;
      const fresh = await admin.request('GET', q('letters.txt'), { headers: { Range: 'bytes=0-1', 'If-Range': etag } });
      expect(fresh.status).to.equal(206);
      const stale = await admin.request('GET', q('letters.txt'), { headers: { Range: 'bytes=0-1', 'If-Range': '"stale-tag"' } });
      expect(stale.status).to.equal(200);
      expect(await stale.text()).to.equal(content);
      const weak = await admin.request('GET', q('letters.txt'), { headers: { Range: 'bytes=0-1', 'If-Range': `W/${etag}` } });
      expect(weak.status).to.equal(200);
    });

    it('answers 304 to If-None-Match and If-Modified-Since, and a new ETag after a change', async () => {
      const first = await admin.request('GET', q('letters.txt'));
      const etag = first.headers.get('etag') as string;
      const lastModified = first.headers.get('last-modified') as string;
      expect((await admin.request('GET', q('letters.txt'), { headers: { 'If-None-Match': etag } })).status).to.equal(304);
      expect((await admin.request('GET', q('letters.txt'), { headers: { 'If-None-Match': `"other", ${etag}` } })).status).to.equal(304);
      expect((await admin.request('GET', q('letters.txt'), { headers: { 'If-Modified-Since': lastModified } })).status).to.equal(304);
      expect((await admin.request('GET', q('letters.txt'), { headers: { 'If-None-Match': '"other"' } })).status).to.equal(200);
      writeFileSync(path.join(folder, 'letters.txt'), content.toUpperCase());
      const changed = await admin.request('GET', q('letters.txt'), { headers: { 'If-None-Match': etag } });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).to.not.equal(etag);
      writeFileSync(path.join(folder, 'letters.txt'), content);
    });

    it('refuses folders and missing files', async () => {
      mkdirSync(path.join(folder, 'a-folder'));
      await expectProblem(admin.api.files.download({ params: { shareId }, query: { path: 'a-folder' } }), 'fs.entry.not_file', 409);
      await expectProblem(admin.api.files.download({ params: { shareId }, query: { path: 'absent.txt' } }), 'fs.entry.not_found', 404);
    });
  });
});

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { maxWallpaperUploadBytes } from '../../shared/src/api/desktop/desktop.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { photo, pngBomb } from '../helpers/images.ts';
import { insertUser } from '../helpers/users.ts';

const laptop = { 'X-Device-Id': 'laptop-0001' };

async function problemOf(res: Response): Promise<{ status: number; code: string; type: string | null }> {
  const body = (await res.json()) as { code: string };
  return { status: res.status, code: body.code, type: res.headers.get('content-type') };
}

describe('desktop: uploaded wallpaper', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let alice: TestClient;
  let bob: TestClient;
  let aliceId: number;
  let bobId: number;
  let folder: string;
  let jpeg: Buffer;

  /** A raw upload, as the web sends it (the typed client would do too, but this one can set any Content-Type). */
  const upload = (client: TestClient, bytes: Uint8Array, type: string): Promise<Response> =>
    client.fetch(`${box.url}/api/desktop/wallpaper`, {
      method: 'PUT',
      headers: { 'Content-Type': type, 'X-CSRF-Token': client.csrfToken as string },
      body: new Uint8Array(bytes),
    });
  const stored = (userId: number) => path.join(folder, `${userId}.webp`);
  const leftovers = () => readdirSync(folder).filter((n) => !/^\d+\.webp$/.test(n));

  before(async () => {
    box = await startTestDaemon();
    folder = path.join(box.dataDir, 'wallpapers');
    aliceId = await insertUser(box, 'alice', 'alice password 1');
    bobId = await insertUser(box, 'bob', 'bob password 1');
    admin = await box.signIn();
    alice = await box.signIn('alice', 'alice password 1');
    bob = await box.signIn('bob', 'bob password 1');
    // Sideways (EXIF orientation 6) and larger than 4K, with a camera's metadata and a location.
    jpeg = await photo(5000, 3000)
      .jpeg({ quality: 80 })
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: 'TestCam', Model: 'Secret 1' }, IFD3: { GPSLatitudeRef: 'N', GPSLongitudeRef: 'E' } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif, 'the input has EXIF').to.be.an.instanceOf(Buffer);
  });
  after(() => box.close());

  it('refuses every wallpaper route without a session', async () => {
    const anonymous = box.client();
    for (const method of ['PUT', 'GET', 'DELETE']) {
      const res = await anonymous.request(method, '/api/desktop/wallpaper', { body: method === 'PUT' ? 'x' : undefined });
      expect(await problemOf(res), method).to.include({ status: 401, code: 'auth.session.required' });
    }
  });

  it('needs the CSRF token to upload and to remove', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const res = await alice.request(method, '/api/desktop/wallpaper', { body: method === 'PUT' ? 'x' : undefined, csrf: false });
      expect(await problemOf(res), method).to.include({ status: 403, code: 'auth.csrf.invalid' });
    }
  });

  it('refuses custom as the wallpaper while no image is stored', async () => {
    await expectProblem(alice.api.desktop.setAppearance({ body: { accentColor: '#2f6fdf', wallpaper: 'custom' } }), 'desktop.wallpaper.missing', 409);
    await expectProblem(alice.api.desktop.getWallpaper({ query: {} }), 'desktop.wallpaper.not_found', 404);
  });

  it('stores a JPEG upright, within 3840 x 2160, as WebP without metadata, and makes it the wallpaper', async () => {
    await alice.api.desktop.setAppearance({ body: { accentColor: '#C2410C', wallpaper: 'forest' } });
    // The header says PNG: the content decides.
    const res = await upload(alice, jpeg, 'image/png');
    expect(res.status).to.equal(200);
    const appearance = (await res.json()) as { accentColor: string; wallpaper: string; wallpaperVersion: string };
    expect(appearance).to.include({ accentColor: '#c2410c', wallpaper: 'custom' });
    expect(appearance.wallpaperVersion).to.match(/^[0-9a-f]{16}$/);
    const meta = await sharp(stored(aliceId)).metadata();
    // 5000 x 3000 turned a quarter (orientation 6) is 3000 x 5000; fitted into 3840 x 2160 it is 1296 x 2160.
    expect(meta).to.include({ format: 'webp', width: 1296, height: 2160 });
    expect(meta.exif).to.equal(undefined);
    expect(meta.icc).to.equal(undefined);
    expect(meta.xmp).to.equal(undefined);
    expect(meta.orientation).to.equal(undefined);
    const state = await alice.api.desktop.get({ headers: laptop });
    expect(state.appearance).to.deep.equal(appearance);
  });

  it('answers the image with its version as ETag, 304 on If-None-Match, and caches it for a year under ?v=', async () => {
    const { appearance } = await alice.api.desktop.get({ headers: laptop });
    const version = appearance.wallpaperVersion as string;
    const plain = await alice.request('GET', '/api/desktop/wallpaper');
    expect(plain.status).to.equal(200);
    expect(plain.headers.get('content-type')).to.equal('image/webp');
    expect(plain.headers.get('etag')).to.equal(`"${version}"`);
    expect(plain.headers.get('cache-control')).to.equal('private, no-cache');
    const body = Buffer.from(await plain.arrayBuffer());
    expect((await sharp(body).metadata()).format).to.equal('webp');
    const pinned = await alice.request('GET', `/api/desktop/wallpaper?v=${version}`);
    expect(pinned.headers.get('cache-control')).to.equal('private, max-age=31536000, immutable');
    await pinned.arrayBuffer();
    const again = await alice.request('GET', '/api/desktop/wallpaper', { headers: { 'If-None-Match': `"${version}"` } });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    const stale = await alice.request('GET', '/api/desktop/wallpaper', { headers: { 'If-None-Match': '"0123456789abcdef"' } });
    expect(stale.status).to.equal(200);
    await stale.arrayBuffer();
    expect(await problemOf(await alice.request('GET', '/api/desktop/wallpaper?v=not-hex'))).to.include({ status: 400, code: 'request.query.invalid' });
  });

  it('takes PNG and WebP too, and every new upload gets a new version', async () => {
    const before = (await alice.api.desktop.get({ headers: laptop })).appearance.wallpaperVersion;
    const png = await photo(800, 600, 2).png().toBuffer();
    const fromPng = (await (await upload(alice, png, 'image/png')).json()) as { wallpaperVersion: string };
    expect(fromPng.wallpaperVersion).to.not.equal(before);
    // Small images are never enlarged.
    expect(await sharp(stored(aliceId)).metadata()).to.include({ format: 'webp', width: 800, height: 600 });
    const webp = await photo(640, 480, 3).webp().toBuffer();
    const fromWebp = (await (await upload(alice, webp, 'image/webp')).json()) as { wallpaperVersion: string };
    expect(fromWebp.wallpaperVersion).to.not.equal(fromPng.wallpaperVersion);
    expect(await sharp(stored(aliceId)).metadata()).to.include({ format: 'webp', width: 640, height: 480 });
    // The typed client sends the raw body as well.
    const typed = await alice.api.desktop.uploadWallpaper({ body: new Uint8Array(png) });
    expect(typed.wallpaper).to.equal('custom');
  });

  it('refuses what is not a readable JPEG, PNG or WebP with desktop.wallpaper.invalid, keeping the stored image', async () => {
    const version = (await alice.api.desktop.get({ headers: laptop })).appearance.wallpaperVersion;
    const gif = await photo(32, 32).gif().toBuffer();
    const cases: [string, Buffer, string][] = [
      ['text', Buffer.from('just some words, not an image\n'), 'notAnImage'],
      ['truncated', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'corrupt'],
      ['gif', gif, 'unsupportedType'],
      ['empty', Buffer.alloc(0), 'notAnImage'],
    ];
    for (const [name, bytes, reason] of cases) {
      const res = await upload(alice, bytes, 'image/jpeg');
      const body = (await res.json()) as { code: string; params?: { reason: string } };
      expect({ status: res.status, code: body.code, reason: body.params?.reason }, name).to.deep.equal({
        status: 400,
        code: 'desktop.wallpaper.invalid',
        reason,
      });
    }
    expect((await alice.api.desktop.get({ headers: laptop })).appearance.wallpaperVersion).to.equal(version);
    expect(leftovers()).to.deep.equal([]);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).to.be.below(1024 * 1024);
    const res = await upload(alice, bomb, 'image/png');
    const body = (await res.json()) as { code: string; params?: { reason: string } };
    expect({ status: res.status, code: body.code, reason: body.params?.reason }).to.deep.equal({
      status: 400,
      code: 'desktop.wallpaper.invalid',
      reason: 'tooManyPixels',
    });
  });

  it('refuses a body beyond 25 MiB with 413 problem details before reading it', async () => {
    const url = new URL(box.url);
    const answer = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: '/api/desktop/wallpaper',
        headers: {
          Cookie: alice.cookieHeader(),
          'X-CSRF-Token': alice.csrfToken as string,
          'Content-Type': 'image/png',
          'Content-Length': String(maxWallpaperUploadBytes + 1),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.write('a few bytes');
    });
    expect(answer.status).to.equal(413);
    expect(answer.type).to.match(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).to.include({ code: 'request.body.too_large', status: 413 });
    expect(leftovers()).to.deep.equal([]);
  });

  it('leaves no temporary file and the old image when storing fails midway', async () => {
    // Bob's image name taken by a non-empty folder: the rename of the written temporary file fails.
    mkdirSync(path.join(stored(bobId), 'blocker'), { recursive: true });
    try {
      const res = await upload(bob, await photo(64, 64).png().toBuffer(), 'image/png');
      expect(res.status).to.equal(500);
      expect(leftovers()).to.deep.equal([]);
      expect((await bob.api.desktop.get({ headers: laptop })).appearance.wallpaper).to.equal('aurora');
    } finally {
      rmSync(stored(bobId), { recursive: true, force: true });
    }
  });

  it("answers each user their own image only: there is no way to name another's", async () => {
    await expectProblem(bob.api.desktop.getWallpaper({ query: {} }), 'desktop.wallpaper.not_found', 404);
    const bobs = await upload(bob, await photo(300, 200, 9).png().toBuffer(), 'image/png');
    expect(bobs.status).to.equal(200);
    const mine = await sharp(Buffer.from(await (await alice.request('GET', '/api/desktop/wallpaper')).arrayBuffer())).metadata();
    const his = await sharp(Buffer.from(await (await bob.request('GET', '/api/desktop/wallpaper')).arrayBuffer())).metadata();
    expect([mine.width, his.width]).to.deep.equal([800, 300]);
    expect((await admin.api.desktop.get({ headers: laptop })).appearance).to.not.have.property('wallpaperVersion');
  });

  it('keeps the image while a built-in wallpaper is chosen, so custom can be chosen again', async () => {
    const version = (await alice.api.desktop.get({ headers: laptop })).appearance.wallpaperVersion;
    await alice.api.desktop.setAppearance({ body: { accentColor: '#c2410c', wallpaper: 'lake' } });
    expect((await alice.api.desktop.get({ headers: laptop })).appearance).to.deep.equal({
      accentColor: '#c2410c',
      wallpaper: 'lake',
      wallpaperVersion: version,
    });
    await alice.api.desktop.setAppearance({ body: { accentColor: '#c2410c', wallpaper: 'custom' } });
    expect((await alice.api.desktop.get({ headers: laptop })).appearance.wallpaper).to.equal('custom');
  });

  it('removes the image (idempotently) and falls back from custom to the default built-in wallpaper', async () => {
    await alice.api.desktop.deleteWallpaper();
    expect((await alice.api.desktop.get({ headers: laptop })).appearance).to.deep.equal({ accentColor: '#c2410c', wallpaper: 'aurora' });
    await expectProblem(alice.api.desktop.getWallpaper({ query: {} }), 'desktop.wallpaper.not_found', 404);
    expect(readdirSync(folder)).to.not.include(`${aliceId}.webp`);
    await alice.api.desktop.deleteWallpaper();
    // A built-in choice stays when the image goes.
    await upload(alice, await photo(100, 100).png().toBuffer(), 'image/png');
    await alice.api.desktop.setAppearance({ body: { accentColor: '#c2410c', wallpaper: 'dunes' } });
    await alice.api.desktop.deleteWallpaper();
    expect((await alice.api.desktop.get({ headers: laptop })).appearance).to.deep.equal({ accentColor: '#c2410c', wallpaper: 'dunes' });
  });

  it('logs the upload at info with who and how much, never the bytes', async () => {
    const entries = await admin.api.logs.list({ query: { search: 'uploaded', level: ['info'] } });
    // The request's user is the entry's userId (the logger's request context).
    const entry = entries.items.find((e) => e.message === 'wallpaper uploaded' && e.userId === bobId);
    expect(entry, 'log entry').to.not.equal(undefined);
    expect(entry?.fields).to.include({ component: 'desktop' });
    expect(entry?.fields.bytes).to.be.a('number');
    expect(JSON.stringify(entry)).to.have.length.below(1000);
  });

  it("removes a deleted user's image", async () => {
    expect(readdirSync(folder)).to.include(`${bobId}.webp`);
    await admin.api.users.remove({ params: { userId: bobId }, query: { home: 'keep' } });
    expect(readdirSync(folder)).to.not.include(`${bobId}.webp`);
  });
});

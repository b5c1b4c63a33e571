import { existsSync, mkdirSync, readdirSync, renameSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import type { ThumbnailState, ThumbnailStates } from '../../shared/src/api/files/thumbnails.ts';
import type { TopicEvent } from '../../shared/src/topics.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { photo, pngBomb } from '../helpers/images.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

type Announcement = { path: string; size: number; v: string; reason?: string };

/** Waits until every path has been announced on the topic; answers the announcements by path. */
async function announced(socket: TestSocket, topic: string, paths: string[], timeoutMs = 20_000): Promise<Map<string, TopicEvent<Announcement>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Map<string, TopicEvent<Announcement>>();
    for (const event of socket.events as TopicEvent<Announcement>[])
      if (event.topic === topic && paths.includes(event.data.path)) seen.set(event.data.path, event);
    if (seen.size === paths.length) return seen;
    if (Date.now() > deadline) throw new Error(`announced only ${[...seen.keys()].join(', ')} of ${paths.join(', ')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function byPath(states: ThumbnailStates): Map<string, ThumbnailState> {
  return new Map(states.items.map((s) => [s.path, s]));
}

/** Every WebP in the thumbnail cache of a share. */
function cachedFiles(box: TestDaemon, shareId: number): string[] {
  const dir = path.join(box.dataDir, 'thumbnails', String(shareId));
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.webp'));
}

describe('thumbnails', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;
  let socket: TestSocket;
  let topic: string;
  const images = ['photo.jpg', 'pic.png', 'pic.webp', 'anim.gif', 'jpeg-named.txt'];
  const thumbUrl = (p: string, extra = '') => `/api/files/${shareId}/thumbnail?path=${encodeURIComponent(p)}${extra}`;
  const ask = (paths: string[], size?: 256 | 1024) => admin.api.thumbnails.states({ params: { shareId }, body: { paths, ...(size ? { size } : {}) } });

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'Photos'));
    // A landscape photo whose EXIF says "rotate 90° clockwise": its thumbnail must come out portrait.
    await photo(1600, 1200).jpeg().withMetadata({ orientation: 6 }).toFile(path.join(folder, 'photo.jpg'));
    await photo(800, 600, 2).png().toFile(path.join(folder, 'pic.png'));
    await photo(640, 480, 3).webp().toFile(path.join(folder, 'pic.webp'));
    // Two 300x200 frames stacked: an animated GIF whose thumbnail is its first frame.
    await photo(300, 400, 4).gif().toFile(path.join(folder, 'frames.tmp.gif'));
    await sharp(path.join(folder, 'frames.tmp.gif'))
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) =>
        sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels, pageHeight: 200 } })
          .gif()
          .toFile(path.join(folder, 'anim.gif')),
      );
    unlinkSync(path.join(folder, 'frames.tmp.gif'));
    // Recognised by content, never by name: a JPEG called .txt is an image, text called .jpg is not.
    await photo(200, 100, 5).jpeg().toFile(path.join(folder, 'jpeg-named.txt'));
    writeFileSync(path.join(folder, 'fake.jpg'), 'this is not a JPEG at all, whatever its name says\n');
    writeFileSync(path.join(folder, 'bomb.png'), pngBomb());
    mkdirSync(path.join(folder, 'album'));
    socket = await connectSocket(box.url, admin);
    topic = `thumbnails/${shareId}`;
    // Subscribe first, so no announcement can slip by between the answer and the subscription.
    const ack = await socket.subscribe(topic);
    expect(ack.ok).to.equal(true);
  });
  after(async () => {
    socket.close();
    await box.close();
    removeTempFolders();
  });

  it('answers at once with each state, renders the missing ones and announces them on the topic', async () => {
    const first = await ask([...images, 'fake.jpg', 'album', 'no-such.jpg']);
    expect(first.topic).to.equal(topic);
    expect(first.size).to.equal(256);
    const states = byPath(first);
    for (const image of images) expect(states.get(image), image).to.deep.equal({ path: image, state: 'queued', v: null, reason: null });
    expect(states.get('fake.jpg')).to.deep.include({ state: 'unsupported', reason: 'notImage' });
    expect(states.get('album')).to.deep.include({ state: 'unsupported', reason: 'notFile' });
    expect(states.get('no-such.jpg')).to.deep.include({ state: 'failed', reason: 'notFound' });

    const events = await announced(socket, topic, images);
    for (const image of images) {
      expect(events.get(image)?.type, image).to.equal('ready');
      expect(events.get(image)?.data)
        .to.include({ path: image, size: 256 })
        .and.have.property('v')
        .that.matches(/^[0-9a-f]{20}$/);
    }
    const again = byPath(await ask(images));
    for (const image of images) expect(again.get(image), image).to.deep.equal({ path: image, state: 'ready', v: events.get(image)?.data.v, reason: null });
  });

  it('refuses a PNG decompression bomb without decoding it', async () => {
    const rssBefore = process.memoryUsage().rss;
    expect(byPath(await ask(['bomb.png'])).get('bomb.png')).to.deep.include({ state: 'queued' });
    const event = (await announced(socket, topic, ['bomb.png'])).get('bomb.png');
    expect(event?.type).to.equal('failed');
    expect(event?.data.reason).to.equal('tooManyPixels');
    // 20000 x 20000 pixels decoded would take at least 400 MB; the header alone is read.
    expect(process.memoryUsage().rss - rssBefore).to.be.below(200 * 1024 * 1024);
    expect(byPath(await ask(['bomb.png'])).get('bomb.png')).to.deep.equal({ path: 'bomb.png', state: 'failed', v: null, reason: 'tooManyPixels' });
    const v = event?.data.v as string;
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'bomb.png', v } }), 'fs.thumbnail.not_found', 404);
  });

  it('serves the WebP with a long cache lifetime when v is current, oriented and fitted into the size', async () => {
    const states = byPath(await ask(images));
    const expectations: Record<string, [number, number]> = {
      'photo.jpg': [192, 256], // 1600x1200 turned upright by its EXIF orientation
      'pic.png': [256, 192],
      'pic.webp': [256, 192],
      'anim.gif': [256, 171], // one 300x200 frame, not the 300x400 strip
      'jpeg-named.txt': [200, 100], // never enlarged
    };
    for (const [image, [width, height]] of Object.entries(expectations)) {
      const v = states.get(image)?.v as string;
      const res = await admin.request('GET', thumbUrl(image, `&v=${v}`));
      expect(res.status, image).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/webp');
      expect(res.headers.get('cache-control')).to.equal('private, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height], image).to.deep.equal(['webp', width, height]);
    }
  });

  it('renders the large size separately and revalidates answers without v', async () => {
    const queued = byPath(await ask(['pic.png'], 1024));
    expect(queued.get('pic.png')?.state).to.equal('queued');
    socket.events.length = 0;
    const ready = (await announced(socket, topic, ['pic.png'])).get('pic.png');
    expect(ready?.data).to.include({ size: 1024 });
    const res = await admin.request('GET', thumbUrl('pic.png', '&size=1024'));
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('private, no-cache');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).to.deep.equal([800, 600]);
    const etag = res.headers.get('etag') as string;
    const revalidated = await admin.request('GET', thumbUrl('pic.png', '&size=1024'), { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).to.equal(304);
  });

  it('renders each version once however often it is asked for', async () => {
    await photo(400, 300, 6).jpeg().toFile(path.join(folder, 'once.jpg'));
    socket.events.length = 0;
    const answers = await Promise.all([ask(['once.jpg']), ask(['once.jpg']), ask(['once.jpg'])]);
    for (const answer of answers) expect(answer.items[0]?.state).to.be.oneOf(['queued', 'ready']);
    await announced(socket, topic, ['once.jpg']);
    await new Promise((r) => setTimeout(r, 300));
    expect(socket.events.filter((e) => (e.data as Announcement).path === 'once.jpg')).to.have.length(1);
  });

  it('answers fs.thumbnail.not_found when none exists yet, for a stale v, and for non-images', async () => {
    await photo(300, 300, 7).png().toFile(path.join(folder, 'never-asked.png'));
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'never-asked.png' } }), 'fs.thumbnail.not_found', 404);
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'fake.jpg' } }), 'fs.thumbnail.not_found', 404);
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'missing.jpg' } }), 'fs.entry.not_found', 404);
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'album' } }), 'fs.entry.not_file', 409);

    const old = byPath(await ask(['pic.webp'])).get('pic.webp')?.v as string;
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'pic.webp', v: 'abc123' } }), 'fs.thumbnail.not_found', 404);
    // The file changes: the old v no longer answers, and the new version is rendered again.
    await photo(640, 480, 8).webp().toFile(path.join(folder, 'pic.webp.new'));
    renameSync(path.join(folder, 'pic.webp.new'), path.join(folder, 'pic.webp'));
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'pic.webp', v: old } }), 'fs.thumbnail.not_found', 404);
    await expectProblem(admin.api.thumbnails.get({ params: { shareId }, query: { path: 'pic.webp' } }), 'fs.thumbnail.not_found', 404);
    socket.events.length = 0;
    expect(byPath(await ask(['pic.webp'])).get('pic.webp')?.state).to.equal('queued');
    const fresh = (await announced(socket, topic, ['pic.webp'])).get('pic.webp')?.data.v;
    expect(fresh).to.be.a('string').and.not.equal(old);
    expect((await admin.request('GET', thumbUrl('pic.webp', `&v=${fresh}`))).status).to.equal(200);
  });

  it('keeps a thumbnail by the file identity across a rename', async () => {
    const v = byPath(await ask(['jpeg-named.txt'])).get('jpeg-named.txt')?.v;
    renameSync(path.join(folder, 'jpeg-named.txt'), path.join(folder, 'renamed.txt'));
    expect(byPath(await ask(['renamed.txt'])).get('renamed.txt')).to.deep.equal({ path: 'renamed.txt', state: 'ready', v, reason: null });
  });

  it('removes cached thumbnails whose source changed or disappeared on the next sweep', async () => {
    const states = byPath(await ask(['pic.png', 'photo.jpg', 'anim.gif']));
    const before = cachedFiles(box, shareId);
    const keyOf = (p: string) => states.get(p)?.v as string;
    for (const p of ['pic.png', 'photo.jpg', 'anim.gif'])
      expect(
        before.some((f) => f.includes(keyOf(p))),
        p,
      ).to.equal(true);
    unlinkSync(path.join(folder, 'photo.jpg'));
    // Only the modification time changes: a new version all the same.
    utimesSync(path.join(folder, 'pic.png'), new Date(1_700_000_000_000), new Date(1_700_000_000_000));
    expect(await box.daemon.scheduler.runNow('thumbnails.sweep')).to.equal(true);
    const after = cachedFiles(box, shareId);
    expect(after.some((f) => f.includes(keyOf('photo.jpg')))).to.equal(false);
    expect(after.filter((f) => f.includes(keyOf('pic.png')))).to.deep.equal([]);
    expect(after.some((f) => f.includes(keyOf('anim.gif')))).to.equal(true);
    const rows = (
      await box.daemon.db.query('SELECT cache_key FROM thumbnails WHERE cache_key IN (?, ?)', { replacements: [keyOf('pic.png'), keyOf('photo.jpg')] })
    )[0];
    expect(rows).to.deep.equal([]);
    expect((await admin.request('GET', thumbUrl('anim.gif', `&v=${keyOf('anim.gif')}`))).status).to.equal(200);
  });

  describe('access and refusals', () => {
    let stranger: TestClient;
    let reader: TestClient;
    before(async () => {
      await insertUser(box, 'stranger', 'stranger-password');
      stranger = await box.signIn('stranger', 'stranger-password');
      const readerId = await insertUser(box, 'reader', 'reader-password');
      await admin.api.shares.setGrants({ params: { shareId }, body: { grants: [{ subjectType: 'user', subjectId: readerId, level: 'read' }] } });
      reader = await box.signIn('reader', 'reader-password');
    });

    it('gives a user with read access the same thumbnails, and nothing to a user without a grant', async () => {
      const v = byPath(await reader.api.thumbnails.states({ params: { shareId }, body: { paths: ['anim.gif'] } })).get('anim.gif')?.v;
      expect(v).to.be.a('string');
      expect((await reader.request('GET', thumbUrl('anim.gif', `&v=${v}`))).status).to.equal(200);
      await expectProblem(stranger.api.thumbnails.states({ params: { shareId }, body: { paths: ['anim.gif'] } }), 'fs.share.not_found', 404);
      await expectProblem(stranger.api.thumbnails.get({ params: { shareId }, query: { path: 'anim.gif', v: v as string } }), 'fs.share.not_found', 404);
      const strangerSocket = await connectSocket(box.url, stranger);
      try {
        const ack = await strangerSocket.subscribe(topic);
        expect(!ack.ok && ack.problem.code).to.equal('fs.share.not_found');
      } finally {
        strangerSocket.close();
      }
      const readerSocket = await connectSocket(box.url, reader);
      try {
        expect((await readerSocket.subscribe(topic)).ok).to.equal(true);
      } finally {
        readerSocket.close();
      }
    });

    it('answers 401 without a session on both routes', async () => {
      const anonymous = box.client();
      for (const res of [
        await anonymous.request('GET', thumbUrl('anim.gif')),
        await anonymous.request('POST', `/api/files/${shareId}/thumbnails`, { body: { paths: ['anim.gif'] } }),
      ]) {
        expect(res.status).to.equal(401);
        expect((await res.json()).code).to.equal('auth.session.required');
      }
    });

    it('answers 400 to bad input on both routes', async () => {
      const post = (body: unknown, id: string | number = shareId) => admin.request('POST', `/api/files/${id}/thumbnails`, { body });
      const cases: [Promise<Response>, string][] = [
        [admin.request('GET', `/api/files/${shareId}/thumbnail`), 'request.query.invalid'],
        [admin.request('GET', thumbUrl('pic.png', '&size=300')), 'request.query.invalid'],
        [admin.request('GET', thumbUrl('pic.png', '&v=not-hex!')), 'request.query.invalid'],
        [admin.request('GET', `/api/files/x/thumbnail?path=a`), 'request.params.invalid'],
        [admin.request('GET', thumbUrl('../etc/passwd')), 'fs.path.invalid'],
        [post({ paths: [] }), 'request.body.invalid'],
        [post({ paths: Array.from({ length: 201 }, (_, i) => `f${i}.jpg`) }), 'request.body.invalid'],
        [post({ paths: ['a.jpg', 'a.jpg'] }), 'request.body.invalid'],
        [post({ paths: ['a.jpg'], size: 300 }), 'request.body.invalid'],
        [post({ paths: ['a.jpg'] }, 'x'), 'request.params.invalid'],
        [post({ paths: ['ok.jpg', 'a/../../b.jpg'] }), 'fs.path.invalid'],
        [post({ paths: ['/etc/passwd'] }), 'fs.path.invalid'],
      ];
      for (const [request, code] of cases) {
        const res = await request;
        expect(res.status, code).to.equal(400);
        expect((await res.json()).code).to.equal(code);
      }
    });
  });
});

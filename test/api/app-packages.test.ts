import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import type { AppPackagePreview } from '../../shared/src/api/apps/app-packages.ts';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { Clock } from '../../daemon/src/core/clock.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { tarHeader, tarOf, tgzOf, type TarEntry } from '../helpers/tar-builder.ts';
import { insertUser } from '../helpers/users.ts';

const manifest: AppManifest = {
  id: 'org.example.test',
  name: 'Test',
  version: '1.0.0',
  dataVersion: 1,
  minBoxVersion: '0.1.0',
  description: 'An app of the tests',
  author: 'Tests',
  homepage: null,
  permissions: ['notifications'],
  storage: [{ storageId: 'docs', purpose: 'Reads your documents', access: 'read' }],
  backend: null,
};
const icon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>';

/** A valid package's entries, changed by `extra` (appended) and `manifestOf`. */
function entries(extra: TarEntry[] = [], m: object = manifest, iconText = icon): TarEntry[] {
  return [
    { name: 'manifest.json', body: JSON.stringify(m) },
    { name: 'icon.svg', body: iconText },
    { name: 'frontend/', type: 'dir' },
    { name: 'frontend/index.html', body: '<!doctype html><title>t</title>' },
    ...extra,
  ];
}

function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => void (offset += ms) };
}

/** A gzip stream of a tiny valid tar followed by `zeros` bytes of zeros: small on the wire, huge inflated. */
function paddedBomb(zeros: number): Readable {
  const gzip = createGzip({ level: 9 });
  const chunk = Buffer.alloc(4 * 1024 * 1024);
  async function* source() {
    yield tarOf(entries()).subarray(0, -1024);
    for (let sent = 0; sent < zeros; sent += chunk.length) yield chunk;
  }
  return Readable.from(source()).pipe(gzip);
}

describe('app packages: upload, checks, preview, keep and discard', function () {
  this.timeout(120_000);
  const clock = movableClock();
  let box: TestDaemon;
  let admin: TestClient;
  let otherAdmin: TestClient;
  let packagesDir: string;
  let outside: string;

  const upload = (client: TestClient, body: Buffer | Readable) =>
    client.api.apps.uploadPackage({ body: body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : body });

  before(async () => {
    box = await startTestDaemon({}, { clock });
    admin = await box.signIn();
    await insertUser(box, 'second', 'second-password-1', { admin: true });
    otherAdmin = await box.signIn('second', 'second-password-1');
    packagesDir = path.join(box.dataDir, 'apps', 'packages');
    outside = await mkdtemp(path.join(tmpdir(), 'cellar-app-outside-'));
  });

  after(async () => {
    await box?.close();
    await rm(outside, { recursive: true, force: true });
  });

  const leftovers = () => (existsSync(packagesDir) ? readdirSync(packagesDir) : []);

  describe('the example app', () => {
    let preview: AppPackagePreview;

    it('previews a new install with what it asks for', async () => {
      const file = await buildAppPackage('examples/hello-app', box.dataDir);
      preview = await upload(admin, readFileSync(file));
      expect(preview.manifest.id).to.equal('org.example.hello');
      expect(preview).to.include({ action: 'install', installedVersion: null, files: 7 });
      expect(preview.permissions).to.deep.equal({ added: ['notifications'], removed: [], kept: [] });
      expect(preview.storage.added.map((s) => s.storageId)).to.deep.equal(['greetings']);
      expect(preview.icon).to.match(/^<svg/);
      expect(new Date(preview.expiresAt).getTime() - Date.now()).to.be.within(14 * 60_000, 15 * 60_000 + 5000);
      expect(readdirSync(path.join(packagesDir, preview.packageId, 'files', 'frontend'))).to.include('index.html');
    });

    it('keeps it for its uploader only, and discards it', async () => {
      expect(await admin.api.apps.package({ params: { packageId: preview.packageId } })).to.deep.equal(preview);
      await expectProblem(otherAdmin.api.apps.package({ params: { packageId: preview.packageId } }), 'app.package.not_found', 404);
      await expectProblem(otherAdmin.api.apps.discardPackage({ params: { packageId: preview.packageId } }), 'app.package.not_found', 404);
      await admin.api.apps.discardPackage({ params: { packageId: preview.packageId } });
      await expectProblem(admin.api.apps.package({ params: { packageId: preview.packageId } }), 'app.package.not_found', 404);
      expect(leftovers()).to.deep.equal([]);
    });

    it('forgets a package after 15 minutes, and the sweep removes its folder', async () => {
      const kept = await upload(admin, tgzOf(entries()));
      clock.advance(15 * 60_000 + 1000);
      await expectProblem(admin.api.apps.package({ params: { packageId: kept.packageId } }), 'app.package.not_found', 404);
      await box.daemon.scheduler.runNow('apps.packages.sweep');
      expect(leftovers()).to.deep.equal([]);
    });
  });

  describe('against the installed version', () => {
    const install = async (m: AppManifest) => {
      const now = new Date().toISOString();
      await box.daemon.db.query('DELETE FROM apps');
      await box.daemon.db.query('INSERT INTO apps (id, version, data_version, manifest, state, installed_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', {
        replacements: [m.id, m.version, m.dataVersion, JSON.stringify(m), 'enabled', now, now],
      });
    };
    after(() => box.daemon.db.query('DELETE FROM apps'));

    it('names an update with the permissions and storage requests it adds, changes and drops', async () => {
      await install({
        ...manifest,
        version: '0.9.0',
        permissions: ['files'],
        storage: [
          { storageId: 'docs', purpose: 'Reads your documents', access: 'readWrite' },
          { storageId: 'old', purpose: 'Gone in 1.0', access: 'read' },
        ],
      });
      const p = await upload(admin, tgzOf(entries()));
      expect(p).to.include({ action: 'update', installedVersion: '0.9.0' });
      expect(p.permissions).to.deep.equal({ added: ['notifications'], removed: ['files'], kept: [] });
      expect(p.storage.changed.map((s) => s.storageId)).to.deep.equal(['docs']);
      expect(p.storage.removed.map((s) => s.storageId)).to.deep.equal(['old']);
    });

    it('names a reinstall and a downgrade with the same data version, and refuses one with another', async () => {
      await install(manifest);
      expect((await upload(admin, tgzOf(entries()))).action).to.equal('reinstall');
      await install({ ...manifest, version: '1.1.0' });
      expect((await upload(admin, tgzOf(entries()))).action).to.equal('downgrade');
      await install({ ...manifest, version: '2.0.0', dataVersion: 2 });
      const err = await expectProblem(upload(admin, tgzOf(entries())), 'app.package.downgrade_unsupported', 409);
      expect(err.problem.params).to.deep.equal({ installedVersion: '2.0.0', installedDataVersion: 2, dataVersion: 1 });
    });
  });

  describe('hostile packages: each refused with its code, nothing left on disk', () => {
    const entry = (code: string, reason: string, name?: string) => ({ code, reason, name });
    const cases: { what: string; body: () => Buffer | Readable; code: string; reason?: string; entry?: string }[] = [
      { what: 'a ../ entry', body: () => tgzOf(entries([{ name: '../evil.txt', body: 'x' }])), ...entry('app.package.entry_refused', 'dotDot', '../evil.txt') },
      {
        what: 'a ../ inside a path',
        body: () => tgzOf(entries([{ name: 'frontend/../../evil.txt', body: 'x' }])),
        ...entry('app.package.entry_refused', 'dotDot'),
      },
      { what: 'an absolute path', body: () => tgzOf(entries([{ name: `${outside}/abs.txt`, body: 'x' }])), ...entry('app.package.entry_refused', 'absolute') },
      {
        what: 'a symlink pointing out',
        body: () => tgzOf(entries([{ name: 'frontend/up', type: 'symlink', linkname: '../../../etc/passwd' }])),
        ...entry('app.package.entry_refused', 'linkOutside', 'frontend/up'),
      },
      {
        what: 'an absolute symlink',
        body: () => tgzOf(entries([{ name: 'frontend/abs', type: 'symlink', linkname: '/etc/passwd' }])),
        ...entry('app.package.entry_refused', 'linkOutside'),
      },
      {
        // Each target alone stays inside; followed through frontend/a (the package root), frontend/b leaves it.
        what: 'a symlink leaving through another link',
        body: () =>
          tgzOf(
            entries([
              { name: 'frontend/a', type: 'symlink', linkname: '..' },
              { name: 'frontend/b', type: 'symlink', linkname: 'a/../x' },
            ]),
          ),
        ...entry('app.package.entry_refused', 'linkOutside', 'frontend/b'),
      },
      {
        what: 'a file written through a link',
        body: () =>
          tgzOf(
            entries([
              { name: 'frontend/here', type: 'symlink', linkname: '.' },
              { name: 'frontend/here/evil.txt', body: 'x' },
            ]),
          ),
        ...entry('app.package.entry_refused', 'linkOutside', 'frontend/here/evil.txt'),
      },
      {
        what: 'a folder named like a file before it',
        body: () => tgzOf(entries([{ name: 'frontend/index.html/', type: 'dir' }])),
        ...entry('app.package.entry_refused', 'duplicate', 'frontend/index.html'),
      },
      {
        what: 'a hard link pointing out',
        body: () => tgzOf(entries([{ name: 'frontend/hard', type: 'hardlink', linkname: '/etc/passwd' }])),
        ...entry('app.package.entry_refused', 'hardLinkOutside', 'frontend/hard'),
      },
      {
        what: 'a hard link to no file of the package',
        body: () => tgzOf(entries([{ name: 'frontend/hard', type: 'hardlink', linkname: 'frontend/missing' }])),
        ...entry('app.package.entry_refused', 'hardLinkOutside'),
      },
      { what: 'a device node', body: () => tgzOf(entries([{ name: 'frontend/dev', type: 'char' }])), ...entry('app.package.entry_refused', 'device') },
      { what: 'a FIFO', body: () => tgzOf(entries([{ name: 'frontend/pipe', type: 'fifo' }])), ...entry('app.package.entry_refused', 'fifo') },
      {
        what: 'a set-uid file',
        body: () => tgzOf(entries([{ name: 'frontend/suid', body: '#!/bin/sh', mode: 0o4755 }])),
        ...entry('app.package.entry_refused', 'setId', 'frontend/suid'),
      },
      {
        what: 'names that differ in case only',
        body: () =>
          tgzOf(
            entries([
              { name: 'frontend/A.js', body: '1' },
              { name: 'frontend/a.js', body: '2' },
            ]),
          ),
        ...entry('app.package.entry_refused', 'caseDuplicate', 'frontend/a.js'),
      },
      {
        what: 'a file declared past 512 MB (a gzip bomb)',
        body: () => gzipSync(Buffer.concat([tarOf(entries()).subarray(0, -1024), tarHeader({ name: 'frontend/bomb.bin' }, 600 * 1024 * 1024)])),
        ...entry('app.package.invalid', 'tooLarge'),
      },
      // Zeros past the end-of-archive blocks inflate without any header to count them.
      { what: 'a stream that inflates on after the archive ends', body: () => paddedBomb(64 * 1024 * 1024), ...entry('app.package.invalid', 'trailingData') },
      {
        what: '200,000 tiny entries',
        body: () => tgzOf(entries(Array.from({ length: 200_000 }, (_, i) => ({ name: `frontend/f${i}` })))),
        ...entry('app.package.invalid', 'tooManyEntries'),
      },
      { what: 'a truncated gzip', body: () => tgzOf(entries()).subarray(0, 120), ...entry('app.package.invalid', 'truncated') },
      { what: 'no gzip at all', body: () => tarOf(entries()), ...entry('app.package.invalid', 'notGzip') },
      { what: 'a gzip that holds no tar', body: () => gzipSync(Buffer.from('just some text, no archive')), ...entry('app.package.invalid', 'notTar') },
      { what: 'a missing manifest', body: () => tgzOf(entries().slice(1)), ...entry('app.package.invalid', 'manifestMissing') },
      {
        what: 'a manifest that is no JSON',
        body: () => tgzOf([{ name: 'manifest.json', body: '{id:' }, ...entries().slice(1)]),
        ...entry('app.package.invalid', 'manifestUnreadable'),
      },
      {
        what: 'an invalid manifest',
        body: () => tgzOf(entries([], { ...manifest, version: 'one', permissions: ['root'] })),
        ...entry('app.package.invalid', 'manifestInvalid'),
      },
      { what: 'an org.service.* id', body: () => tgzOf(entries([], { ...manifest, id: 'org.service.files' })), code: 'app.package.id_reserved' },
      { what: 'an app for a newer box', body: () => tgzOf(entries([], { ...manifest, minBoxVersion: '99.0.0' })), code: 'app.package.box_too_old' },
      {
        what: 'an SVG icon with script',
        body: () => tgzOf(entries([], manifest, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
        ...entry('app.package.icon_invalid', 'script'),
      },
      {
        what: 'an SVG icon with an event handler',
        body: () => tgzOf(entries([], manifest, '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')),
        ...entry('app.package.icon_invalid', 'eventHandler'),
      },
      { what: 'no frontend', body: () => tgzOf(entries().slice(0, 2)), ...entry('app.package.invalid', 'frontendMissing') },
      {
        what: 'a backend named without backend/',
        body: () => tgzOf(entries([], { ...manifest, backend: { command: ['node', 'server.js'], listen: 'unix-socket' } })),
        ...entry('app.package.invalid', 'backendMissing'),
      },
    ];

    // Previews kept by the tests above stay until discarded; a refusal must add nothing to them.
    let kept: string[];
    beforeEach(() => (kept = leftovers()));

    for (const c of cases) {
      it(`refuses ${c.what}: ${c.code}${c.reason ? ` (${c.reason})` : ''}`, async () => {
        const body = c.body();
        // Building the large bodies blocks this process (and the daemon in it) for seconds: let the
        // expired keep-alive timers close idle sockets first, or the request may go out on one being closed.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const err = await expectProblem(upload(admin, body), c.code, c.code === 'app.package.box_too_old' ? 409 : 400);
        if (c.reason) expect(err.problem.params?.reason).to.equal(c.reason);
        if (c.entry) expect(err.problem.params?.entry).to.equal(c.entry);
        expect(leftovers()).to.deep.equal(kept);
        expect(readdirSync(outside)).to.deep.equal([]);
        expect(existsSync(path.join(box.dataDir, 'evil.txt'))).to.equal(false);
      });
    }

    /** Sends `body` as a real client would, stopping once the box answered; `declared` goes as Content-Length. */
    const send = (body: Readable, declared?: number) => {
      const url = new URL(box.url);
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers: Record<string, string> = { Cookie: admin.cookieHeader(), 'X-CSRF-Token': admin.csrfToken as string };
        if (declared !== undefined) headers['Content-Length'] = String(declared);
        const req = httpRequest({ host: url.hostname, port: url.port, method: 'PUT', path: '/api/apps/packages', headers });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          body.destroy();
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', (err) => (answered ? undefined : reject(err)));
        body.on('data', (chunk: Buffer) => {
          if (!answered && !req.write(chunk)) body.pause();
        });
        req.on('drain', () => body.resume());
        body.on('end', () => (answered ? undefined : req.end()));
      });
    };
    /**
     * A valid start of a package whose last file goes on past 256 MB: gzip without compression of
     * bytes that would not compress anyway, so the box reads on (every header so far is fine) until the limit.
     */
    const endlessPackage = () => {
      const gzip = createGzip({ level: 0 });
      const chunk = randomBytes(1024 * 1024);
      async function* source() {
        yield Buffer.concat([tarOf(entries()).subarray(0, -1024), tarHeader({ name: 'frontend/media.bin' }, 300 * 1024 * 1024)]);
        for (let sent = 0; sent < 300 * 1024 * 1024; sent += chunk.length) yield chunk;
      }
      return Readable.from(source()).pipe(gzip);
    };

    it('refuses a declared length past 256 MB with 413 before reading the body', async () => {
      const answer = await send(Readable.from([Buffer.alloc(1024 * 1024)]), 2 ** 40);
      expect(answer.status).to.equal(413);
      expect(JSON.parse(answer.body).code).to.equal('request.body.too_large');
      expect(leftovers()).to.deep.equal(kept);
    });

    it('stops a chunked body at 256 MB with 413, which the client still sending reads', async () => {
      let written = 0;
      const body = endlessPackage().on('data', (chunk: Buffer) => (written += chunk.length));
      // The box answers, then reads and drops the rest (a lingering close): no reset can destroy
      // the answer before a client that is still sending reads it.
      const answer = await send(body);
      expect(answer.status).to.equal(413);
      expect(JSON.parse(answer.body).code).to.equal('request.body.too_large');
      expect(written).to.be.above(256 * 1024 * 1024);
      expect(leftovers()).to.deep.equal(kept);
    });
  });
});

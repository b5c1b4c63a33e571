import { expect } from 'chai';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, userPassword } from '../helpers/identity.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';
import { example, installApp, storageApp } from '../helpers/storage-apps.ts';

/**
 * Files of an app's mapped storage through the API for apps (/api/app/storage/...), called as a
 * sandboxed window does: its host token, no cookie. Confined to the mapped folder.
 */
describe('the API for apps: files of mapped storage', function () {
  this.timeout(60_000);
  const appId = example.id;
  let box: TestDaemon;
  let admin: TestClient;
  let share: ShareInfo;
  let folder: string;
  let token: string;

  const call = (method: string, route: string, body?: string, bearer = token) =>
    fetch(`${box.url}/api/app/storage${route}`, {
      method,
      headers: { Authorization: `Bearer ${bearer}`, 'X-Cellar-Instance': 'window-files-1', Origin: 'null' },
      body,
    });
  const problem = async (res: Response, status: number, code: string) => {
    const body = (await res.json()) as { code: string };
    expect([res.status, body.code], JSON.stringify(body)).to.deep.equal([status, code]);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  };
  const list = async (storageId: string, rel = '') => {
    const res = await call('GET', `/${storageId}/list?path=${encodeURIComponent(rel)}`);
    expect(res.status).to.equal(200);
    return (await res.json()) as { items: { name: string; path: string; type: string }[]; path: string; nextCursor: string | null };
  };
  const newToken = async () => (await admin.api.apps.issueToken({ params: { appId }, body: { kind: 'host', instanceId: 'window-files-1' } })).token;

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    ({ share, folder } = await makeShare(admin, 'media'));
    for (const dir of ['greetings/inner', 'photos', 'private']) mkdirSync(path.join(folder, dir), { recursive: true });
    writeFileSync(path.join(folder, 'greetings', 'hello.txt'), 'hello\n');
    writeFileSync(path.join(folder, 'photos', 'a.jpg'), 'jpeg\n');
    writeFileSync(path.join(folder, 'private', 'secret.txt'), 'secret\n');
    const outside = tempFolder();
    writeFileSync(path.join(outside, 'passwd'), 'outside\n');
    // Links out: to elsewhere on the host, and to a folder of the same share that is not mapped.
    symlinkSync(outside, path.join(folder, 'greetings', 'out'));
    symlinkSync(path.join(folder, 'private'), path.join(folder, 'greetings', 'sibling'));
    symlinkSync(path.join(folder, 'private', 'secret.txt'), path.join(folder, 'greetings', 'secret-link.txt'));
    await installApp(admin, storageApp('1.0.0', { backend: null }));
    await admin.api.apps.mapStorage({ params: { appId, storageId: 'greetings' }, body: { shareId: share.id, path: 'greetings', access: 'readWrite' } });
    token = await newToken();
  });
  after(async () => {
    await box?.close();
    removeTempFolders();
  });

  it('lists a folder of the mapped storage with paths relative to it', async () => {
    const page = await list('greetings');
    expect(page.path).to.equal('');
    expect(page.items.map((e) => [e.name, e.path, e.type])).to.deep.include.members([
      ['hello.txt', 'hello.txt', 'file'],
      ['inner', 'inner', 'folder'],
    ]);
    expect((await list('greetings', 'inner')).items).to.deep.equal([]);
  });

  it('reads a file, with ranges as the file API', async () => {
    const res = await call('GET', '/greetings/content?path=hello.txt');
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('hello\n');
    const part = await fetch(`${box.url}/api/app/storage/greetings/content?path=hello.txt`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Cellar-Instance': 'window-files-1', Range: 'bytes=1-2' },
    });
    expect([part.status, await part.text()]).to.deep.equal([206, 'el']);
  });

  it('writes a file into a read-write mapping, and refuses to replace one unless asked', async () => {
    const res = await call('PUT', '/greetings/content?path=inner/new.txt', 'from the app\n');
    expect(res.status).to.equal(201);
    expect(((await res.json()) as { path: string }).path).to.equal('inner/new.txt');
    expect(readFileSync(path.join(folder, 'greetings', 'inner', 'new.txt'), 'utf8')).to.equal('from the app\n');
    await problem(await call('PUT', '/greetings/content?path=inner/new.txt', 'again'), 409, 'fs.entry.exists');
    expect((await call('PUT', '/greetings/content?path=inner/new.txt&overwrite=true', 'again')).status).to.equal(201);
    expect(readFileSync(path.join(folder, 'greetings', 'inner', 'new.txt'), 'utf8')).to.equal('again');
  });

  it('never leaves the mapped folder: .., absolute paths, NUL and links out are refused', async () => {
    await problem(await call('GET', `/greetings/content?path=${encodeURIComponent('../private/secret.txt')}`), 400, 'fs.path.invalid');
    await problem(await call('GET', `/greetings/list?path=${encodeURIComponent('inner/../..')}`), 400, 'fs.path.invalid');
    await problem(await call('GET', `/greetings/content?path=${encodeURIComponent('/etc/passwd')}`), 400, 'fs.path.invalid');
    const nul = await call('GET', `/greetings/content?path=${encodeURIComponent('hello.txt\u0000')}`);
    expect(nul.status).to.equal(400);
    await problem(await call('GET', `/greetings/content?path=${encodeURIComponent('out/passwd')}`), 403, 'fs.path.outside_share');
    await problem(await call('GET', `/greetings/list?path=out`), 403, 'fs.path.outside_share');
    await problem(await call('GET', `/greetings/list?path=sibling`), 403, 'fs.path.outside_share');
    await problem(await call('GET', `/greetings/content?path=secret-link.txt`), 403, 'fs.path.outside_share');
    await problem(await call('PUT', `/greetings/content?path=${encodeURIComponent('sibling/planted.txt')}`, 'x'), 403, 'fs.path.outside_share');
    await problem(await call('PUT', `/greetings/content?path=${encodeURIComponent('../planted.txt')}`, 'x'), 400, 'fs.path.invalid');
    await problem(await call('PUT', `/greetings/content?path=.cellar-trash`, 'x'), 400, 'fs.path.reserved');
    // The entries listed as links out are never followed.
    const out = (await list('greetings')).items.find((e) => e.name === 'out');
    expect(out?.type).to.equal('symlink');
  });

  it('refuses writes to a read mapping, unmapped and unknown storage', async () => {
    await problem(await call('GET', '/photos/list'), 409, 'app.storage.not_mapped');
    await admin.api.apps.mapStorage({ params: { appId, storageId: 'photos' }, body: { shareId: share.id, path: 'photos', access: 'read' } });
    expect((await list('photos')).items.map((e) => e.name)).to.deep.equal(['a.jpg']);
    await problem(await call('PUT', '/photos/content?path=b.jpg', 'x'), 403, 'app.storage.read_only');
    await problem(await call('GET', '/nothing/list'), 404, 'app.storage.not_found');
    await problem(await call('GET', '/Not_An_Id/list'), 400, 'request.params.invalid');
  });

  it('refuses a cookie without a token, and an app without the files permission', async () => {
    const cookie = await admin.request('GET', '/api/app/storage/greetings/list');
    await problem(cookie, 401, 'app.token.invalid');
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: false } } });
    await problem(await call('GET', '/greetings/list'), 403, 'auth.permission.denied');
    await problem(await call('PUT', '/greetings/content?path=z.txt', 'x'), 403, 'auth.permission.denied');
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: true } } });
    expect((await call('GET', '/greetings/list')).status).to.equal(200);
  });

  it('holds each user to their own grant on the share: none is refused, read only reads, read and write writes', async () => {
    const bob = await createUser(admin);
    const carol = await createUser(admin);
    const dave = await createUser(admin);
    await admin.api.shares.setGrants({
      params: { shareId: share.id },
      body: {
        grants: [
          { subjectType: 'user', subjectId: carol.id, level: 'read' },
          { subjectType: 'user', subjectId: dave.id, level: 'readWrite' },
        ],
      },
    });
    const tokenOf = async (username: string) =>
      (await (await box.signIn(username, userPassword)).api.apps.issueToken({ params: { appId }, body: { kind: 'host', instanceId: 'window-files-1' } })).token;
    const [asBob, asCarol, asDave] = await Promise.all([bob, carol, dave].map((u) => tokenOf(u.username)));

    // bob has no grant on the share: the app gives him nothing of it, neither a listing, a file nor a write.
    await problem(await call('GET', '/greetings/list', undefined, asBob), 403, 'app.storage.no_access');
    await problem(await call('GET', '/greetings/content?path=hello.txt', undefined, asBob), 403, 'app.storage.no_access');
    await problem(await call('PUT', '/greetings/content?path=from-bob.txt', 'bob', asBob), 403, 'app.storage.no_access');
    expect(existsSync(path.join(folder, 'greetings', 'from-bob.txt'))).to.equal(false);

    // carol may read the share: she reads through the app, and may not write even into a read-write mapping.
    const read = await call('GET', '/greetings/content?path=hello.txt', undefined, asCarol);
    expect([read.status, await read.text()]).to.deep.equal([200, 'hello\n']);
    await problem(await call('PUT', '/greetings/content?path=from-carol.txt', 'carol', asCarol), 403, 'app.storage.read_only');
    expect(existsSync(path.join(folder, 'greetings', 'from-carol.txt'))).to.equal(false);

    // dave may read and write the share: the mapping's own access is what limits him.
    expect((await call('PUT', '/greetings/content?path=from-dave.txt', 'dave', asDave)).status).to.equal(201);
    expect(readFileSync(path.join(folder, 'greetings', 'from-dave.txt'), 'utf8')).to.equal('dave');

    // A grant taken away applies to the very next call through the app.
    await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'user', subjectId: carol.id, level: 'read' }] } });
    await problem(await call('GET', '/greetings/list', undefined, asDave), 403, 'app.storage.no_access');
  });

  it('answers not found once the mapped folder is gone', async () => {
    await admin.api.apps.mapStorage({ params: { appId, storageId: 'photos' }, body: { shareId: share.id, path: 'photos', access: 'read' } });
    renameSync(path.join(folder, 'photos'), path.join(folder, 'photos-moved'));
    await problem(await call('GET', '/photos/list'), 404, 'fs.entry.not_found');
    // A link put in its place leads nowhere the app may go.
    symlinkSync(path.join(folder, 'private'), path.join(folder, 'photos'));
    await problem(await call('GET', '/photos/list'), 404, 'fs.entry.not_found');
  });
});

import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';
import { example, installApp, storageApp } from '../helpers/storage-apps.ts';
import { insertUser } from '../helpers/users.ts';

/**
 * Storage mappings on a development daemon: the rules of PUT and DELETE
 * /api/apps/{appId}/storage/{storageId}, the list, updates and uninstall, the ACL commands the
 * file services would run (logged here; test/system/app-storage-acl.test.ts applies them as root)
 * and the folders the backend is told of.
 */
describe('apps: storage mappings', function () {
  this.timeout(60_000);
  const appId = example.id;
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  let share: ShareInfo;
  let folder: string;

  const map = (storageId: string, body: { shareId: number; path: string; access: 'read' | 'readWrite' }, id = appId) =>
    admin.api.apps.mapStorage({ params: { appId: id, storageId }, body });
  const mappingOf = async (storageId: string) =>
    (await admin.api.apps.list()).apps.find((a) => a.id === appId)?.storage.find((s) => s.storageId === storageId)?.mapping;
  /** The ACL changes the file services logged since `since` (development mode makes none), as JSON of their fields. */
  const aclCommands = async (since: string) => {
    await new Promise((r) => setTimeout(r, 700));
    const page = await admin.api.logs.list({ query: { source: ['daemon'], from: since, limit: 500 } });
    return page.items.filter((e) => e.message === 'would set ACLs' || e.message === 'would add ACL entries').map((e) => JSON.stringify(e.fields));
  };

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    await insertUser(box, 'uma', 'uma-password-1');
    user = await box.signIn('uma', 'uma-password-1');
    ({ share, folder } = await makeShare(admin, 'media'));
    for (const dir of ['greetings', 'photos/2026', 'private']) mkdirSync(path.join(folder, dir), { recursive: true });
    writeFileSync(path.join(folder, 'notes.txt'), 'not a folder');
    symlinkSync(tempFolder(), path.join(folder, 'outside'));
    await installApp(admin, storageApp());
  });
  after(async () => {
    await box?.close();
    removeTempFolders();
  });

  it('lists every storage request unmapped after install', async () => {
    const app = (await admin.api.apps.list()).apps.find((a) => a.id === appId);
    expect(app?.storage.map((s) => [s.storageId, s.access, s.mapping])).to.deep.equal([
      ['greetings', 'readWrite', null],
      ['photos', 'read', null],
    ]);
  });

  it('maps an existing folder of a share as the request allows, and shows it in the list', async () => {
    const since = new Date().toISOString();
    const details = await map('greetings', { shareId: share.id, path: 'greetings', access: 'readWrite' });
    expect(details.storage.find((s) => s.storageId === 'greetings')?.mapping).to.deep.equal({ shareId: share.id, path: 'greetings', access: 'readWrite' });
    expect(await mappingOf('greetings')).to.deep.equal({ shareId: share.id, path: 'greetings', access: 'readWrite' });
    // A read-write request may also be mapped read-only; a read-only one only so.
    expect((await map('photos', { shareId: share.id, path: 'photos/2026', access: 'read' })).storage[1]?.mapping?.access).to.equal('read');
    // The file services give the app's account its folders: rwx (and default) on greetings, r-x on photos/2026, passage above.
    const uid = details.uid;
    const logged = (await aclCommands(since)).join('\n');
    expect(logged).to.include(`u:app${uid}:rwX`);
    expect(logged).to.include(`u:app${uid}:rwx`);
    expect(logged).to.include(`u:app${uid}:rX`);
    expect(logged).to.include(`u:app${uid}:--x`);
  });

  it('refuses read and write where the request asks only to read (app.mapping.invalid)', async () => {
    const err = await expectProblem(map('photos', { shareId: share.id, path: 'photos', access: 'readWrite' }), 'app.mapping.invalid', 400);
    expect(err.problem.params).to.deep.equal({ reason: 'readOnlyRequest' });
    expect((await mappingOf('photos'))?.path).to.equal('photos/2026');
  });

  it('refuses an unknown app, storage request or share', async () => {
    await expectProblem(map('greetings', { shareId: share.id, path: 'greetings', access: 'read' }, 'org.example.nothing'), 'app.app.not_found', 404);
    await expectProblem(map('nothing', { shareId: share.id, path: 'greetings', access: 'read' }), 'app.storage.not_found', 404);
    await expectProblem(map('greetings', { shareId: 9999, path: 'greetings', access: 'read' }), 'fs.share.not_found', 404);
  });

  it('needs an existing folder inside the share, reached without links', async () => {
    const at = (p: string) => map('greetings', { shareId: share.id, path: p, access: 'read' });
    await expectProblem(at('missing'), 'fs.entry.not_found', 404);
    await expectProblem(at('notes.txt'), 'fs.entry.not_folder', 409);
    await expectProblem(at('outside'), 'fs.path.outside_share', 403);
    await expectProblem(at('../etc'), 'fs.path.invalid', 400);
    await expectProblem(at('/etc'), 'fs.path.invalid', 400);
    await expectProblem(at('greetings/'), 'fs.path.invalid', 400);
    // NUL and other control characters never reach the service.
    await expectProblem(at('greet\u0000ings'), 'request.body.invalid', 400);
    await expectProblem(at('.cellar-trash'), 'fs.path.reserved', 400);
    // Nothing of that changed the mapping in force.
    expect(await mappingOf('greetings')).to.deep.equal({ shareId: share.id, path: 'greetings', access: 'readWrite' });
  });

  it('refuses bad bodies, the signed-out and users who are not administrators', async () => {
    const route = `/api/apps/${appId}/storage/greetings`;
    const bad = await admin.request('PUT', route, { body: { shareId: share.id, path: 'greetings', access: 'write' } });
    expect(bad.status).to.equal(400);
    expect((await bad.json()).code).to.equal('request.body.invalid');
    const badId = await admin.request('PUT', `/api/apps/${appId}/storage/Greetings!`, { body: { shareId: share.id, path: '', access: 'read' } });
    expect(badId.status).to.equal(400);
    expect((await box.client().request('PUT', route, { body: { shareId: share.id, path: '', access: 'read' } })).status).to.equal(401);
    await expectProblem(
      user.api.apps.mapStorage({ params: { appId, storageId: 'greetings' }, body: { shareId: share.id, path: '', access: 'read' } }),
      'auth.permission.denied',
      403,
    );
    await expectProblem(user.api.apps.unmapStorage({ params: { appId, storageId: 'greetings' } }), 'auth.permission.denied', 403);
  });

  it('replaces an earlier mapping, and maps the share itself with an empty path', async () => {
    await map('photos', { shareId: share.id, path: '', access: 'read' });
    expect(await mappingOf('photos')).to.deep.equal({ shareId: share.id, path: '', access: 'read' });
    await map('photos', { shareId: share.id, path: 'photos/2026', access: 'read' });
    expect(await mappingOf('photos')).to.deep.equal({ shareId: share.id, path: 'photos/2026', access: 'read' });
  });

  /** Waits until a running backend of the app was started with this CELLAR_STORAGE (it runs as the daemon's user here, so its environment is readable). */
  const backendStorage = async (expected: Record<string, string>) => {
    const seen: string[] = [];
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        let env: string[];
        try {
          env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        } catch {
          continue;
        }
        if (!env.includes(`CELLAR_APP_ID=${appId}`) || !env.some((e) => e.startsWith(`CELLAR_DATA_DIR=${box.dataDir}`))) continue;
        const storage = env.find((e) => e.startsWith('CELLAR_STORAGE='))?.slice('CELLAR_STORAGE='.length) ?? '';
        if (storage === JSON.stringify(expected)) return;
        seen.push(storage);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect.fail(`no backend with CELLAR_STORAGE ${JSON.stringify(expected)}; saw ${[...new Set(seen)].join(', ')}`);
  };

  it('tells the backend where its mapped folders are (CELLAR_STORAGE), only while the app holds files', async () => {
    const both = { greetings: path.join(folder, 'greetings'), photos: path.join(folder, 'photos', '2026') };
    await backendStorage(both);
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: false } } });
    await backendStorage({});
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: true } } });
    await backendStorage(both);
  });

  it('keeps mappings across an update, and unmaps with DELETE leaving the folder', async () => {
    await installApp(admin, storageApp('1.1.0'));
    expect(await mappingOf('greetings')).to.deep.equal({ shareId: share.id, path: 'greetings', access: 'readWrite' });
    const since = new Date().toISOString();
    const details = await admin.api.apps.unmapStorage({ params: { appId, storageId: 'greetings' } });
    expect(details.storage.find((s) => s.storageId === 'greetings')?.mapping).to.equal(null);
    expect(existsSync(path.join(folder, 'greetings'))).to.equal(true);
    // The share's ACL is set again without the app on greetings; photos keeps it.
    const logged = await aclCommands(since);
    expect(logged.some((l) => l.includes(`"path":"${folder}"`) && !l.includes(`app${details.uid}`))).to.equal(true);
    // Unmapping again is no error; an unknown storage id is.
    await admin.api.apps.unmapStorage({ params: { appId, storageId: 'greetings' } });
    await expectProblem(admin.api.apps.unmapStorage({ params: { appId, storageId: 'nothing' } }), 'app.storage.not_found', 404);
    await expectProblem(admin.api.apps.unmapStorage({ params: { appId: 'org.example.nothing', storageId: 'greetings' } }), 'app.app.not_found', 404);
  });

  it('drops the mappings on uninstall and leaves the folders and their files', async () => {
    writeFileSync(path.join(folder, 'photos', '2026', 'a.jpg'), 'jpeg');
    const job = await finished(admin, (await admin.api.apps.uninstall({ params: { appId }, query: { data: 'keep' } })).id, 60_000);
    expect(job.state).to.equal('succeeded');
    expect(readFileSync(path.join(folder, 'photos', '2026', 'a.jpg'), 'utf8')).to.equal('jpeg');
    await installApp(admin, storageApp('1.1.0'));
    expect(await mappingOf('photos')).to.equal(null);
  });
});

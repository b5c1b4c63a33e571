import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { api } from '../../shared/src/api/index.ts';
import { coreApps } from '../../shared/src/apps.ts';
import { buildUrl } from '../../shared/src/client.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

const device = (id: string) => ({ 'X-Device-Id': id });
const laptop = device('laptop-0001');
const phone = device('phone-0001');

async function problemOf(res: Response): Promise<{ status: number; code: string; params?: Record<string, unknown> }> {
  const body = (await res.json()) as { code: string; params?: Record<string, unknown> };
  return { status: res.status, code: body.code, params: body.params };
}

describe('desktop: state, appearance, items and window preferences', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let alice: TestClient;

  before(async () => {
    box = await startTestDaemon();
    await insertUser(box, 'alice', 'alice password 1');
    admin = await box.signIn();
    alice = await box.signIn('alice', 'alice password 1');
  });
  after(() => box.close());

  it('refuses every desktop route without a session', async () => {
    for (const route of Object.values(api.desktop)) {
      const path = buildUrl(route, { id: 1, appId: 'org.service.files' });
      const res = await box.client().request(route.method, path, { body: 'body' in route ? {} : undefined, headers: laptop });
      expect(await problemOf(res), route.id).to.include({ status: 401, code: 'auth.session.required' });
    }
  });

  it('names the device by X-Device-Id, answers the default device without one, and refuses a malformed one', async () => {
    // A client that follows the document without the optional header (curl, a script) works.
    expect((await admin.api.desktop.get()).deviceId).to.equal('default-device');
    for (const bad of ['short', 'has space in it', 'x'.repeat(65), 'semi;colon-id']) {
      await expectProblem(admin.api.desktop.get({ headers: device(bad) }), 'desktop.device.invalid', 400);
    }
    const state = await admin.api.desktop.get({ headers: laptop });
    expect(state).to.deep.include({ deviceId: 'laptop-0001', layout: null, layoutVersion: 0, windowPreferences: [] });
    // A new user's first desktop holds the apps they may open; the web arranges them.
    expect(state.items.map((i) => [i.kind, i.appId, i.label])).to.deep.equal(coreApps.map((a) => ['app', a.id, a.title.en]));
    expect(state.appearance).to.deep.equal({ accentColor: '#2f6fdf', wallpaper: 'aurora' });
  });

  it('lists every core app for administrators and only the permitted ones for users', async () => {
    const adminApps = (await admin.api.desktop.get({ headers: laptop })).apps;
    expect(adminApps.map((a) => a.id)).to.deep.equal(coreApps.map((a) => a.id));
    expect(adminApps[0]).to.deep.equal({
      id: 'org.service.files',
      icon: 'folder',
      title: { en: 'Files', de: 'Dateien' },
      defaultWindow: { width: 960, height: 640 },
      frontend: null,
      iconUrl: null,
    });
    const aliceApps = (await alice.api.desktop.get({ headers: laptop })).apps;
    expect(aliceApps.map((a) => a.id)).to.deep.equal(['org.service.files']);
  });

  it('keeps one appearance per user for every device', async () => {
    await admin.api.desktop.setAppearance({ body: { accentColor: '#AA3366', wallpaper: 'forest' } });
    for (const headers of [laptop, phone]) {
      expect((await admin.api.desktop.get({ headers })).appearance).to.deep.equal({ accentColor: '#aa3366', wallpaper: 'forest' });
    }
    expect((await alice.api.desktop.get({ headers: laptop })).appearance.wallpaper).to.equal('aurora');
    for (const body of [
      { accentColor: 'red', wallpaper: 'forest' },
      { accentColor: '#12345', wallpaper: 'forest' },
      { accentColor: '#123456', wallpaper: 'moon' },
      { accentColor: '#123456' },
    ]) {
      await expectProblem(admin.api.desktop.setAppearance({ body: body as never }), 'request.body.invalid', 400);
    }
  });

  it('creates items with a Location header and the version as ETag', async () => {
    const res = await admin.request('POST', '/api/desktop/items', { body: { kind: 'app', label: 'Files', appId: 'org.service.files' } });
    expect(res.status).to.equal(201);
    const item = await res.json();
    expect(res.headers.get('location')).to.equal(`/api/desktop/items/${item.id}`);
    expect(res.headers.get('etag')).to.equal('"1"');
    expect(item).to.include({ kind: 'app', label: 'Files', appId: 'org.service.files', shareId: null, path: null, version: 1 });
    const folder = await admin.api.desktop.createItem({ body: { kind: 'folder', label: 'Photos', shareId: 3, path: 'family/2026' } });
    expect(folder).to.include({ kind: 'folder', appId: null, shareId: 3, path: 'family/2026', version: 1 });
    const listed = await admin.api.desktop.listItems();
    expect(listed.map((i) => [i.id, i.version])).to.deep.include.members([
      [item.id, 1],
      [folder.id, 1],
    ]);
    expect((await alice.api.desktop.listItems()).map((i) => i.appId)).to.deep.equal(['org.service.files']);
  });

  it('puts the apps on a first desktop once, in the user’s language, and removed icons stay removed', async () => {
    const gretaId = await insertUser(box, 'greta', 'greta password 1');
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE id = ?", { replacements: [gretaId] });
    const greta = await box.signIn('greta', 'greta password 1');
    const first = (await greta.api.desktop.get({ headers: laptop })).items;
    expect(first.map((i) => [i.appId, i.label])).to.deep.equal([['org.service.files', 'Dateien']]);
    for (const item of first) await greta.request('DELETE', `/api/desktop/items/${item.id}`, { headers: { 'If-Match': `"${item.version}"` } });
    expect((await greta.api.desktop.get({ headers: phone })).items).to.deep.equal([]);
  });

  it('refuses items whose fields do not fit their kind or are malformed', async () => {
    const bad = [
      { kind: 'app', label: 'X' },
      { kind: 'app', label: 'X', appId: 'org.service.files', path: 'a' },
      { kind: 'folder', label: 'X', path: 'a' },
      { kind: 'folder', label: 'X', shareId: 1, path: '../etc' },
      { kind: 'folder', label: 'X', shareId: 1, path: '/abs' },
      { kind: 'folder', label: 'X', shareId: 1, path: 'a//b' },
      { kind: 'printer', label: 'X' },
      { kind: 'app', label: '', appId: 'org.service.files' },
      { kind: 'app', label: 'X', appId: 'Not An App' },
    ];
    for (const body of bad) await expectProblem(admin.api.desktop.createItem({ body: body as never }), 'request.body.invalid', 400);
  });

  describe('PATCH with If-Match', () => {
    let id: number;
    const patch = (headers: Record<string, string>, body: object = { label: 'Renamed' }) =>
      admin.request('PATCH', `/api/desktop/items/${id}`, { body, headers });

    beforeEach(async () => {
      id = (await admin.api.desktop.createItem({ body: { kind: 'folder', label: 'Docs', shareId: 7, path: 'docs' } })).id;
    });

    it('applies a change whose quoted version matches, keeps omitted fields and answers the new ETag', async () => {
      const res = await patch({ 'If-Match': '"1"' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(await res.json()).to.include({ label: 'Renamed', shareId: 7, path: 'docs', version: 2 });
      const moved = await admin.api.desktop.updateItem({ params: { id }, body: { path: 'docs/old' }, headers: { 'If-Match': '"2"' } });
      expect(moved).to.include({ label: 'Renamed', shareId: 7, path: 'docs/old', version: 3 });
    });

    it('answers 412 desktop.item.conflict with the current version for a stale or wrong version', async () => {
      expect((await patch({ 'If-Match': '"1"' })).status).to.equal(200);
      for (const stale of ['"1"', '"99"', '"0"']) {
        expect(await problemOf(await patch({ 'If-Match': stale }))).to.deep.include({ status: 412, code: 'desktop.item.conflict', params: { version: 2 } });
      }
      expect((await admin.api.desktop.listItems()).find((i) => i.id === id)).to.include({ label: 'Renamed', version: 2 });
    });

    it('refuses an If-Match that is not one quoted number with 400 desktop.if_match.invalid', async () => {
      for (const bad of ['1', 'W/"1"', '*', '"1", "2"', '"one"', 'garbage', '""', '']) {
        expect(await problemOf(await patch({ 'If-Match': bad })), bad).to.include({ status: 400, code: 'desktop.if_match.invalid' });
      }
      expect((await admin.api.desktop.listItems()).find((i) => i.id === id)?.version).to.equal(1);
    });

    it('changes unconditionally without If-Match', async () => {
      await patch({ 'If-Match': '"1"' });
      const res = await patch({}, { label: 'Blind write' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"3"');
    });

    it("refuses the other kind's fields, absent items and someone else's items", async () => {
      expect(await problemOf(await patch({}, { appId: 'org.service.files' }))).to.include({ status: 400, code: 'desktop.item.invalid' });
      await expectProblem(admin.api.desktop.updateItem({ params: { id: 999999 }, body: { label: 'x' } }), 'desktop.item.not_found', 404);
      await expectProblem(alice.api.desktop.updateItem({ params: { id }, body: { label: 'mine now' } }), 'desktop.item.not_found', 404);
      await expectProblem(admin.api.desktop.updateItem({ params: { id }, body: { label: '' } }), 'request.body.invalid', 400);
      expect((await admin.request('PATCH', '/api/desktop/items/abc', { body: { label: 'x' } })).status).to.equal(400);
    });
  });

  it("deletes idempotently: 204 again, for absent items and, without effect, for someone else's", async () => {
    const item = await admin.api.desktop.createItem({ body: { kind: 'app', label: 'Logs', appId: 'org.service.logs' } });
    const del = () => admin.request('DELETE', `/api/desktop/items/${item.id}`);
    expect((await del()).status).to.equal(204);
    expect((await del()).status).to.equal(204);
    expect((await admin.request('DELETE', '/api/desktop/items/987654')).status).to.equal(204);
    expect((await admin.api.desktop.listItems()).some((i) => i.id === item.id)).to.equal(false);
    const hers = await alice.api.desktop.createItem({ body: { kind: 'app', label: 'Files', appId: 'org.service.files' } });
    expect((await admin.request('DELETE', `/api/desktop/items/${hers.id}`)).status).to.equal(204);
    expect((await alice.api.desktop.listItems()).map((i) => i.id)).to.include(hers.id);
  });

  it('holds at most 500 items per user', async () => {
    const userId = alice.user!.id;
    const now = new Date().toISOString();
    const have = (await alice.api.desktop.listItems()).length;
    const rows = Array.from({ length: 500 - have }, () => `(${userId}, 'app', 'X', 'org.service.files', 1, '${now}', '${now}')`);
    await box.daemon.db.query(`INSERT INTO desktop_items (user_id, kind, label, app_id, version, created_at, updated_at) VALUES ${rows.join(', ')}`, {
      type: QueryTypes.INSERT,
    });
    const err = await expectProblem(
      alice.api.desktop.createItem({ body: { kind: 'app', label: 'One more', appId: 'org.service.files' } }),
      'desktop.items.too_many',
      409,
    );
    expect(err.problem.params).to.deep.equal({ limit: 500 });
  });

  it('saves window preferences per app, replacing the last one', async () => {
    await admin.api.desktop.setWindowPreference({ params: { appId: 'org.service.files' }, body: { width: 800, height: 600, x: 10, y: 20, maximised: false } });
    await admin.api.desktop.setWindowPreference({
      params: { appId: 'org.service.logs' },
      body: { width: 1000, height: 700, x: null, y: null, maximised: true },
    });
    await admin.api.desktop.setWindowPreference({ params: { appId: 'org.service.files' }, body: { width: 900, height: 650, x: 30, y: 40, maximised: false } });
    const prefs = (await admin.api.desktop.get({ headers: phone })).windowPreferences;
    expect(prefs.map(({ updatedAt, ...p }) => p)).to.deep.equal([
      { appId: 'org.service.files', width: 900, height: 650, x: 30, y: 40, maximised: false },
      { appId: 'org.service.logs', width: 1000, height: 700, x: null, y: null, maximised: true },
    ]);
    expect((await alice.api.desktop.get({ headers: phone })).windowPreferences).to.deep.equal([]);
  });

  it('refuses malformed window preferences and app ids', async () => {
    const good = { width: 800, height: 600, x: 0, y: 0, maximised: false };
    await expectProblem(admin.api.desktop.setWindowPreference({ params: { appId: 'Not An App' }, body: good }), 'request.params.invalid', 400);
    for (const body of [
      { ...good, width: 50 },
      { ...good, maximised: 'yes' },
      { width: 800, height: 600 },
      { ...good, x: 1.5 },
    ]) {
      await expectProblem(admin.api.desktop.setWindowPreference({ params: { appId: 'org.service.files' }, body: body as never }), 'request.body.invalid', 400);
    }
  });
});

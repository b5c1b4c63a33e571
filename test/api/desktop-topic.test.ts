import { expect } from 'chai';
import { defaultAppearance } from '../../shared/src/api/desktop/desktop.ts';
import type { TopicEvent } from '../../shared/src/topics.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

const laptop = { 'X-Device-Id': 'laptop-0001' };
const phone = { 'X-Device-Id': 'phone-00001' };

describe('desktop topic: changes of the caller’s desktop, live', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let alice: TestClient;
  let mine: TestSocket;
  let hers: TestSocket;

  /** The next event of the admin's `desktop` topic, once `act` has run. */
  const next = async (act: () => Promise<unknown>): Promise<TopicEvent> => {
    const event = mine.nextEvent('desktop');
    await act();
    return event;
  };

  before(async () => {
    box = await startTestDaemon();
    await insertUser(box, 'alice', 'alice password 1');
    admin = await box.signIn();
    alice = await box.signIn('alice', 'alice password 1');
    mine = await connectSocket(box.url, admin);
    hers = await connectSocket(box.url, alice);
    const empty = { appearance: defaultAppearance, items: [], windowPreferences: [], layoutVersions: {} };
    expect(await mine.subscribe('desktop')).to.deep.equal({ ok: true, snapshot: empty });
    expect(await hers.subscribe('desktop')).to.deep.equal({ ok: true, snapshot: empty });
  });
  after(async () => {
    mine.close();
    hers.close();
    await box.close();
  });

  it('announces a created, changed and deleted item with its version', async () => {
    let created: Awaited<ReturnType<typeof admin.api.desktop.createItem>> | undefined;
    const added = await next(async () => (created = await admin.api.desktop.createItem({ body: { kind: 'app', label: 'Logs', appId: 'org.service.logs' } })));
    expect(added).to.deep.equal({ topic: 'desktop', type: 'item.created', data: created });

    const folder = await next(() => admin.api.desktop.createItem({ body: { kind: 'folder', label: 'Photos', shareId: 1, path: 'photos/2026' } }));
    expect(folder.data).to.include({ kind: 'folder', shareId: 1, path: 'photos/2026', version: 1 });

    const id = created!.id;
    const changed = await next(() => admin.api.desktop.updateItem({ params: { id }, body: { label: 'Journal' }, headers: { 'If-Match': '"1"' } }));
    expect(changed.type).to.equal('item.changed');
    expect(changed.data).to.include({ id, label: 'Journal', version: 2 });

    const deleted = await next(() => admin.api.desktop.deleteItem({ params: { id } }));
    expect(deleted).to.deep.equal({ topic: 'desktop', type: 'item.deleted', data: { id } });
  });

  it('announces nothing for a refused change or the removal of an absent item', async () => {
    const item = await next(() => admin.api.desktop.createItem({ body: { kind: 'app', label: 'Files', appId: 'org.service.files' } })).then(
      (e) => e.data as { id: number },
    );
    const before = mine.events.length;
    const conflict = await admin.request('PATCH', `/api/desktop/items/${item.id}`, { body: { label: 'stale' }, headers: { 'If-Match': '"7"' } });
    expect(conflict.status).to.equal(412);
    await admin.api.desktop.deleteItem({ params: { id: 987654 } });
    // The next event is the marker change, so nothing came from the two requests before it.
    const marker = await next(() => admin.api.desktop.updateItem({ params: { id: item.id }, body: { label: 'marker' } }));
    expect(marker.data).to.include({ id: item.id, label: 'marker' });
    expect(mine.events.slice(before)).to.deep.equal([marker]);
  });

  it('announces appearance and window preference changes as stored', async () => {
    const appearance = await next(() => admin.api.desktop.setAppearance({ body: { accentColor: '#AA3366', wallpaper: 'forest' } }));
    expect(appearance).to.deep.equal({
      topic: 'desktop',
      type: 'appearance.changed',
      data: (await admin.api.desktop.get({ headers: laptop })).appearance,
    });
    expect((appearance.data as { accentColor: string }).accentColor).to.equal('#aa3366');

    const body = { width: 800, height: 600, x: 40, y: 30, maximised: false };
    const window = await next(() => admin.api.desktop.setWindowPreference({ params: { appId: 'org.service.logs' }, body }));
    expect(window.type).to.equal('window.changed');
    const stored = (await admin.api.desktop.get({ headers: laptop })).windowPreferences.find((p) => p.appId === 'org.service.logs');
    expect(window.data).to.deep.equal(stored);
  });

  it('announces a saved layout with its device and version, also a copied one', async () => {
    const saved = await next(() => admin.request('PUT', '/api/desktop/layout', { body: { icons: {} }, headers: { ...laptop, 'If-Match': '"0"' } }));
    expect(saved).to.deep.equal({ topic: 'desktop', type: 'layout.saved', data: { deviceId: 'laptop-0001', version: 1 } });

    const copied = await next(() => admin.api.desktop.copyLayout({ body: { fromDeviceId: 'laptop-0001', toDeviceId: 'phone-00001' } }));
    expect(copied).to.deep.equal({ topic: 'desktop', type: 'layout.saved', data: { deviceId: 'phone-00001', version: 1 } });
    expect((await admin.api.desktop.get({ headers: phone })).layoutVersion).to.equal(1);
  });

  it('answers a new subscription (a tab reconnecting) with everything the events change, for every device', async () => {
    const late = await connectSocket(box.url, admin);
    try {
      const ack = await late.subscribe('desktop');
      const laptopState = await admin.api.desktop.get({ headers: laptop });
      expect(ack).to.deep.equal({
        ok: true,
        snapshot: {
          appearance: laptopState.appearance,
          items: laptopState.items,
          windowPreferences: laptopState.windowPreferences,
          layoutVersions: { 'laptop-0001': laptopState.layoutVersion, 'phone-00001': (await admin.api.desktop.get({ headers: phone })).layoutVersion },
        },
      });
    } finally {
      late.close();
    }
  });

  it("sends nothing of one user's desktop to another", async () => {
    const herEvent = hers.nextEvent('desktop');
    await alice.api.desktop.createItem({ body: { kind: 'app', label: 'Hers', appId: 'org.service.files' } });
    expect((await herEvent).data).to.include({ label: 'Hers' });
    expect(hers.events.filter((e) => e.topic === 'desktop').map((e) => e.type)).to.deep.equal(['item.created']);
    expect(mine.events.some((e) => (e.data as { label?: string }).label === 'Hers')).to.equal(false);
  });
});

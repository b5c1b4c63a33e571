import { expect } from 'chai';
import type { NotificationList } from '../../shared/src/api/notifications/notifications.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { sleep } from '../helpers/jobs.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

describe('notifications topic', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let alice: TestClient;
  const sockets: TestSocket[] = [];

  const open = async (client: TestClient) => {
    const s = await connectSocket(box.url, client);
    sockets.push(s);
    return s;
  };
  const send = (client: TestClient, title: string) => client.api.notifications.sendApp({ body: { appId: 'org.service.files', title } });

  before(async () => {
    box = await startTestDaemon();
    await insertUser(box, 'alice', 'alice password 1');
    admin = await box.signIn();
    alice = await box.signIn('alice', 'alice password 1');
  });
  after(async () => {
    for (const s of sockets) s.close();
    await box.close();
  });

  it('answers a snapshot equal to GET /api/notifications', async () => {
    await send(admin, 'first');
    const second = await send(admin, 'second');
    await admin.api.notifications.markRead({ body: { ids: [second.id] } });
    const socket = await open(admin);
    const ack = await socket.subscribe('notifications');
    expect(ack.ok).to.equal(true);
    expect((ack as { snapshot: NotificationList }).snapshot).to.deep.equal(await admin.api.notifications.list());
  });

  it("sends created, read and deleted events to the user's own sockets only", async () => {
    const mine = await open(admin);
    const hers = await open(alice);
    expect((await mine.subscribe('notifications')).ok).to.equal(true);
    expect((await hers.subscribe('notifications')).ok).to.equal(true);

    const created = mine.nextEvent('notifications');
    const sent = await send(admin, 'live');
    expect(await created).to.deep.equal({ topic: 'notifications', type: 'created', data: sent });

    const read = mine.nextEvent('notifications');
    await admin.api.notifications.markRead({ body: { ids: [sent.id] } });
    expect(await read).to.deep.equal({ topic: 'notifications', type: 'read', data: { ids: [sent.id] } });

    const deleted = mine.nextEvent('notifications');
    await admin.api.notifications.delete({ params: { id: sent.id } });
    expect(await deleted).to.deep.equal({ topic: 'notifications', type: 'deleted', data: { ids: [sent.id] } });

    // Alice's socket saw none of the administrator's changes.
    await sleep(100);
    expect(hers.events).to.deep.equal([]);
  });

  it('keeps the list and the snapshot plus events equal', async () => {
    const socket = await open(admin);
    const ack = (await socket.subscribe('notifications')) as { ok: true; snapshot: NotificationList };
    const items = [...ack.snapshot.items];
    const apply = (type: string, data: unknown) => {
      if (type === 'created') items.unshift(data as NotificationList['items'][number]);
      const ids = (data as { ids?: number[] }).ids ?? [];
      if (type === 'read') for (const n of items) if (ids.includes(n.id)) n.read = true;
      if (type === 'deleted') items.splice(0, items.length, ...items.filter((n) => !ids.includes(n.id)));
    };
    const a = await send(admin, 'a');
    await send(admin, 'b');
    await admin.api.notifications.markRead({ body: {} });
    await admin.api.notifications.delete({ params: { id: a.id } });
    await send(admin, 'c');
    await sleep(100);
    for (const e of socket.events) apply(e.type, e.data);
    expect(items).to.deep.equal((await admin.api.notifications.list()).items);
  });
});

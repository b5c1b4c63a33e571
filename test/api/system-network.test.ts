import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkConfig } from '../../shared/src/api/network/network.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

// A development daemon: it reads the machine's real links (`ip -j`) and applies nothing, so every rule,
// the 60 seconds (an injected clock) and the follow token are tested without touching this machine's network.
describe('system network: rules, confirm, revert and the 60-second deadline', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let now = Date.UTC(2026, 10, 25, 12);
  let card: string;
  const config = (overrides: Partial<NetworkConfig> = {}): NetworkConfig => ({
    hostName: 'cellar-test',
    nameServers: ['192.0.2.53'],
    interfaces: [{ name: card, method: 'static', addresses: ['198.51.100.10/24'], gateway: '198.51.100.1' }],
    bonds: [],
    vlans: [],
    ...overrides,
  });
  const pendingFile = () => path.join(box.dataDir, 'network/pending.json');

  before(async () => {
    box = await startTestDaemon({}, { clock: { now: () => now } });
    admin = await box.signIn();
    const state = await admin.api.systemNetwork.network();
    const changeable = state.links.find((l) => l.kind === 'ethernet' && l.changeable);
    if (!changeable) throw new Error('these tests need one Ethernet card on the machine (read only, never changed)');
    card = changeable.name;
  });
  after(() => box.close());

  it('reads the links with the loopback locked, the configured state from the live one, this connection on the loopback', async () => {
    const state = await admin.api.systemNetwork.network();
    const lo = state.links.find((l) => l.name === 'lo');
    expect(lo).to.include({ kind: 'loopback', changeable: false, up: true });
    expect(lo?.addresses.map((a) => a.address)).to.include('127.0.0.1/8');
    expect(state.connectionInterface).to.equal('lo');
    expect(state.pending).to.equal(null);
    expect(state.configured.interfaces.map((i) => i.name)).to.include(card);
    expect(state.configured.interfaces.map((i) => i.name)).to.not.include('lo');
  });

  it('refuses each bad configuration with its code before anything is touched', async () => {
    const body = (overrides: Partial<NetworkConfig>) => ({ body: config(overrides) });
    await expectProblem(admin.api.systemNetwork.checkNetwork(body({ hostName: '-bad-' })), 'network.hostname.invalid', 400);
    await expectProblem(admin.api.systemNetwork.setNetwork(body({ hostName: 'a'.repeat(64) })), 'network.hostname.invalid', 400);
    await expectProblem(
      admin.api.systemNetwork.setNetwork(
        body({
          bonds: [],
          vlans: [{ name: 'v10', parent: card, id: 10 }],
          interfaces: [
            { name: card, method: 'static', addresses: ['198.51.100.10/24'], gateway: null },
            { name: 'v10', method: 'static', addresses: ['198.51.100.200/25'], gateway: null },
          ],
        }),
      ),
      'network.subnet.overlap',
      400,
    );
    await expectProblem(
      admin.api.systemNetwork.setNetwork(body({ interfaces: [{ name: card, method: 'static', addresses: ['198.51.100.10/24'], gateway: '203.0.113.1' }] })),
      'network.gateway.outside_subnet',
      400,
    );
    await expectProblem(
      admin.api.systemNetwork.setNetwork(body({ vlans: [{ name: 'v20', parent: 'nosuchcard', id: 20 }] })),
      'network.vlan.parent_missing',
      400,
    );
    await expectProblem(
      admin.api.systemNetwork.setNetwork(body({ interfaces: [{ name: 'nosuchcard', method: 'dhcp', addresses: [], gateway: null }] })),
      'network.interface.unknown',
      400,
    );
    await expectProblem(
      admin.api.systemNetwork.setNetwork(body({ interfaces: [{ name: 'lo', method: 'dhcp', addresses: [], gateway: null }] })),
      'network.interface.locked',
      400,
    );
    await expectProblem(
      admin.api.systemNetwork.setNetwork(body({ bonds: [{ name: 'bond0', mode: '802.3ad', members: ['lo'] }] })),
      'network.bond.member_invalid',
      400,
    );
    await expectProblem(
      admin.api.systemNetwork.setNetwork(body({ bonds: [{ name: 'bond0', mode: 'active-backup', members: [card] }] })),
      'network.interface.duplicate',
      400,
    );
    const raw = await admin.request('PUT', '/api/system/network', {
      body: { ...config(), interfaces: [{ name: card, method: 'static', addresses: ['not-an-address'], gateway: null }] },
    });
    expect(raw.status).to.equal(400);
    expect(((await raw.json()) as { code: string }).code).to.equal('request.body.invalid');
    expect(existsSync(pendingFile())).to.equal(false);
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
  });

  it('refuses addresses Joi takes but the kernel does not read (IPvFuture, IPv4 with leading zeros) as bad input, never a 500', async () => {
    const bad: Partial<NetworkConfig>[] = [
      { interfaces: [{ name: card, method: 'static', addresses: ['v1.x/3'], gateway: null }] },
      { interfaces: [{ name: card, method: 'static', addresses: ['010.0.0.1/8'], gateway: null }] },
      { interfaces: [{ name: card, method: 'static', addresses: ['::ffff:010.0.0.1/104'], gateway: null }] },
      { interfaces: [{ name: card, method: 'static', addresses: ['198.51.100.10/24'], gateway: 'v1.x' }] },
      { nameServers: ['v1.x'] },
      { nameServers: ['192.0.02.53'] },
    ];
    for (const overrides of bad) {
      await expectProblem(admin.api.systemNetwork.checkNetwork({ body: config(overrides) }), 'request.body.invalid', 400);
      await expectProblem(admin.api.systemNetwork.setNetwork({ body: config(overrides) }), 'request.body.invalid', 400);
    }
    // Leading zeros in IPv6 groups are ordinary.
    await admin.api.systemNetwork.checkNetwork({
      body: config({ interfaces: [{ name: card, method: 'static', addresses: ['2001:0db8::0010/64'], gateway: null }] }),
    });
  });

  it('checks without applying: stored form, changing interfaces, host name change, this connection, addresses to open', async () => {
    const check = await admin.api.systemNetwork.checkNetwork({ body: config({ hostName: 'Cellar-Test', vlans: [{ name: 'v30', parent: card, id: 30 }] }) });
    expect(check.config.hostName).to.equal('cellar-test');
    expect(check.config.vlans).to.deep.equal([{ name: 'v30', parent: card, id: 30 }]);
    expect(check.changedInterfaces).to.include.members([card, 'v30']);
    expect(check.hostNameChanges).to.equal(true);
    expect(check.connectionInterfaceChanges).to.equal(false);
    expect(check.addresses).to.deep.equal(['198.51.100.10']);
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
  });

  it('applies as one pending change with the addresses to open; a second change waits; confirm before 60 s keeps it', async () => {
    const pending = await admin.api.systemNetwork.setNetwork({ body: config() });
    expect(pending.addresses).to.deep.equal(['198.51.100.10']);
    expect(pending.urls[0]).to.match(/^http:\/\/198\.51\.100\.10:\d+\/$/);
    expect(Date.parse(pending.deadline) - Date.parse(pending.createdAt)).to.equal(60_000);
    expect(pending.followToken).to.be.a('string');
    expect(readFileSync(pendingFile(), 'utf8')).to.not.include(pending.followToken!);
    const state = await admin.api.systemNetwork.network();
    expect(state.pending).to.deep.include({ changeId: pending.changeId, followToken: null });
    expect(state.configured.interfaces.find((i) => i.name === card)?.addresses).to.deep.equal(['198.51.100.10/24']);
    await expectProblem(admin.api.systemNetwork.setNetwork({ body: config() }), 'network.change.pending', 409);
    now += 59_000;
    await admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } });
    now += 60_000;
    const kept = await admin.api.systemNetwork.network();
    expect(kept.pending).to.equal(null);
    expect(kept.configured.hostName).to.equal('cellar-test');
    await expectProblem(admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } }), 'network.change.not_found', 404);
  });

  it('rolls back when 60 seconds pass: the configured state is the kept one again, a late confirm is refused', async () => {
    const pending = await admin.api.systemNetwork.setNetwork({ body: config({ hostName: 'cellar-other' }) });
    expect((await admin.api.systemNetwork.network()).configured.hostName).to.equal('cellar-other');
    now += 60_000;
    await expectProblem(admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } }), 'network.change.expired', 409);
    const state = await admin.api.systemNetwork.network();
    expect(state.pending).to.equal(null);
    expect(state.configured.hostName).to.equal('cellar-test');
  });

  it('reverts at once; an unknown change is not found', async () => {
    const pending = await admin.api.systemNetwork.setNetwork({ body: config({ hostName: 'cellar-reverted' }) });
    await admin.api.systemNetwork.revertNetwork({ params: { changeId: pending.changeId } });
    expect((await admin.api.systemNetwork.network()).configured.hostName).to.equal('cellar-test');
    await expectProblem(admin.api.systemNetwork.revertNetwork({ params: { changeId: pending.changeId } }), 'network.change.not_found', 404);
    await expectProblem(
      admin.api.systemNetwork.confirmNetwork({ params: { changeId: '00000000-0000-4000-8000-000000000000' } }),
      'network.change.not_found',
      404,
    );
  });

  it('answers a confirmation it cannot write as a problem; a change kept on the host is never recorded as rolled back', async () => {
    const network = path.join(box.dataDir, 'network');
    const first = await admin.api.systemNetwork.setNetwork({ body: config({ hostName: 'cellar-unsaved' }) });
    // The mark of the confirmation cannot be written (a folder where its file goes): nothing is claimed, the change still waits.
    mkdirSync(path.join(network, 'changes', first.changeId, 'kept'));
    await expectProblem(admin.api.systemNetwork.confirmNetwork({ params: { changeId: first.changeId } }), 'network.change.unsaved', 507);
    expect((await admin.api.systemNetwork.network()).pending?.changeId).to.equal(first.changeId);
    await admin.api.systemNetwork.revertNetwork({ params: { changeId: first.changeId } });

    const pending = await admin.api.systemNetwork.setNetwork({ body: config({ hostName: 'cellar-unrecorded' }) });
    // The write of the kept configuration fails after the host kept the change (a folder where the file is renamed to).
    const blocker = path.join(network, 'configured.json');
    const old = existsSync(blocker) ? readFileSync(blocker) : null;
    rmSync(blocker, { force: true });
    mkdirSync(path.join(blocker, 'in-the-way'), { recursive: true });
    await expectProblem(admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } }), 'network.change.unrecorded', 507);
    // Past the deadline the state says what the host does: the change is kept, not pending and not rolled back.
    now += 120_000;
    let state = await admin.api.systemNetwork.network();
    expect(state.pending).to.equal(null);
    expect(state.configured.hostName).to.equal('cellar-unrecorded');
    await expectProblem(admin.api.systemNetwork.setNetwork({ body: config() }), 'network.change.unrecorded', 507);
    // Room again: the next read records the confirmation, and a repeated confirm finds it done.
    rmSync(blocker, { recursive: true });
    if (old) writeFileSync(blocker, old);
    state = await admin.api.systemNetwork.network();
    expect(state.configured.hostName).to.equal('cellar-unrecorded');
    expect((JSON.parse(readFileSync(blocker, 'utf8')) as NetworkConfig).hostName).to.equal('cellar-unrecorded');
    expect(existsSync(pendingFile())).to.equal(false);
    expect(readdirSync(path.join(network, 'changes'))).to.deep.equal([]);
    await expectProblem(admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } }), 'network.change.not_found', 404);
    // Back to the kept state the later tests expect.
    const back = await admin.api.systemNetwork.setNetwork({ body: config() });
    await admin.api.systemNetwork.confirmNetwork({ params: { changeId: back.changeId } });
  });

  it('applies one of two changes sent at once; the other waits for it', async () => {
    const answers = await Promise.all(
      ['cellar-one', 'cellar-two'].map((hostName) => admin.request('PUT', '/api/system/network', { body: config({ hostName }) })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).to.deep.equal([200, 409]);
    const applied = (await answers.find((a) => a.status === 200)!.json()) as { changeId: string };
    expect(((await answers.find((a) => a.status === 409)!.json()) as { code: string }).code).to.equal('network.change.pending');
    expect((await admin.api.systemNetwork.network()).pending?.changeId).to.equal(applied.changeId);
    await admin.api.systemNetwork.revertNetwork({ params: { changeId: applied.changeId } });
  });

  it('lets the session follow the box with the one-time token, which works once and only while the change is pending', async () => {
    const pending = await admin.api.systemNetwork.setNetwork({ body: config({ hostName: 'cellar-follow' }) });
    const elsewhere = box.client();
    await expectProblem(elsewhere.api.systemNetwork.followNetwork({ body: { token: 'wrong' } }), 'network.follow.invalid', 401);
    await elsewhere.api.systemNetwork.followNetwork({ body: { token: pending.followToken! } });
    const session = await elsewhere.api.auth.session();
    expect(session.username).to.equal('admin');
    elsewhere.csrfToken = session.csrfToken;
    await expectProblem(box.client().api.systemNetwork.followNetwork({ body: { token: pending.followToken! } }), 'network.follow.invalid', 401);
    // The followed session is an administrator's: it confirms from the new address.
    await elsewhere.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } });
    expect((await admin.api.systemNetwork.network()).configured.hostName).to.equal('cellar-follow');
  });

  it('sends the state on system/network to administrators only, without the connection interface', async () => {
    const watcher = await connectSocket(box.url, admin);
    const ack = await watcher.subscribe('system/network');
    expect(ack.ok).to.equal(true);
    expect((ack as { snapshot: { connectionInterface: unknown } }).snapshot.connectionInterface).to.equal(null);
    const pending = await admin.api.systemNetwork.setNetwork({ body: config({ hostName: 'cellar-topic' }) });
    // The event of this change; one of the previous test's confirm may still arrive first on a busy machine.
    type NetworkEvent = { type: string; data: { pending: { changeId: string } | null; connectionInterface: unknown } };
    const ofThisChange = () => (watcher.events as NetworkEvent[]).find((e) => e.data.pending?.changeId === pending.changeId);
    for (let i = 0; i < 50 && !ofThisChange(); i++) await new Promise((r) => setTimeout(r, 100));
    const event = ofThisChange();
    expect(event?.type).to.equal('changed');
    expect(event?.data.connectionInterface).to.equal(null);
    await admin.api.systemNetwork.revertNetwork({ params: { changeId: pending.changeId } });
    watcher.close();
    await insertUser(box, 'piet', 'piet password 1');
    const piet = await box.signIn('piet', 'piet password 1');
    await expectProblem(piet.api.systemNetwork.network(), 'auth.permission.denied', 403);
    const socket = await connectSocket(box.url, piet);
    const refused = await socket.subscribe('system/network');
    expect(refused.ok).to.equal(false);
    socket.close();
  });
});

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkConfig } from '../../shared/src/api/network/network.ts';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { eventually, makeNamespace, oldAddress, oldGateway, startDaemonChild, type TestNamespace } from './network-fixture.ts';

const newConfig: NetworkConfig = {
  hostName: 'cellar-moved',
  nameServers: ['10.88.0.53'],
  interfaces: [{ name: 'eth0', method: 'static', addresses: ['10.88.0.2/24'], gateway: '10.88.0.1' }],
  bonds: [],
  vlans: [],
};

// Real ip commands in a network namespace the test makes, with a veth pair; nothing outside it is touched.
describe('system network in a namespace: apply, deadline, revert, confirm, kill -9 and restart', function () {
  this.timeout(120_000);
  let ns: TestNamespace;
  let box: TestDaemon | null = null;
  let admin: TestClient;
  let now = Date.UTC(2026, 10, 25, 12);
  const start = async (dataDir?: string) => {
    box = await startTestDaemon(dataDir ? { dataDir } : {}, { clock: { now: () => now }, system: { network: { root: ns.root, namespace: ns.name } } });
    admin = await box.signIn();
    return box;
  };
  const networkFile = () => path.join(ns.root, 'etc/systemd/network/10-cellar-eth0.network');

  before(() => expect(process.getuid?.(), 'system tests run as root').to.equal(0));
  beforeEach(() => {
    ns = makeNamespace();
  });
  afterEach(async () => {
    await box?.close();
    box = null;
    ns.close();
  });

  it('applies a new static address at once, and the old one is back when 60 seconds pass unconfirmed', async () => {
    await start();
    const state = await admin.api.systemNetwork.network();
    expect(state.links.find((l) => l.name === 'eth0')).to.deep.include({ kind: 'ethernet', changeable: true, gateways: [oldGateway] });
    const pending = await admin.api.systemNetwork.setNetwork({ body: newConfig });
    expect(pending.addresses).to.deep.equal(['10.88.0.2']);
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    expect(ns.defaultGateway()).to.equal('10.88.0.1');
    expect(readFileSync(networkFile(), 'utf8')).to.include('Address=10.88.0.2/24').and.include('Gateway=10.88.0.1');
    expect(readFileSync(path.join(ns.root, 'etc/resolv.conf'), 'utf8')).to.include('nameserver 10.88.0.53');
    expect(readFileSync(path.join(ns.root, 'etc/hostname'), 'utf8')).to.equal('cellar-moved\n');
    now += 60_000;
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
    expect(ns.addresses()).to.deep.equal([oldAddress]);
    expect(ns.defaultGateway()).to.equal(oldGateway);
    // The files were not there before the change: the rollback removes them.
    expect(existsSync(networkFile())).to.equal(false);
    expect(existsSync(path.join(ns.root, 'etc/hostname'))).to.equal(false);
  });

  it('reverts at once', async () => {
    await start();
    const pending = await admin.api.systemNetwork.setNetwork({ body: newConfig });
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    await admin.api.systemNetwork.revertNetwork({ params: { changeId: pending.changeId } });
    expect(ns.addresses()).to.deep.equal([oldAddress]);
    expect(ns.defaultGateway()).to.equal(oldGateway);
  });

  it('keeps a confirmed change past the deadline, and a later change rolls back to it', async () => {
    await start();
    const pending = await admin.api.systemNetwork.setNetwork({ body: newConfig });
    now += 30_000;
    await admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } });
    now += 120_000;
    expect((await admin.api.systemNetwork.network()).configured.interfaces).to.deep.equal(newConfig.interfaces);
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    const second = await admin.api.systemNetwork.setNetwork({
      body: { ...newConfig, interfaces: [{ name: 'eth0', method: 'static', addresses: ['10.99.0.2/24'], gateway: null }] },
    });
    expect(ns.addresses()).to.deep.equal(['10.99.0.2/24']);
    await admin.api.systemNetwork.revertNetwork({ params: { changeId: second.changeId } });
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    expect(ns.defaultGateway()).to.equal('10.88.0.1');
    expect(readFileSync(networkFile(), 'utf8')).to.include('Address=10.88.0.2/24');
  });

  it('restores the old configuration from the outside timer after a kill -9 of the daemon', async function () {
    this.timeout(150_000);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-network-kill-'));
    const { url, child } = await startDaemonChild(ns, dataDir);
    try {
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: adminPassword }),
      });
      const { user } = (await login.json()) as { user: { csrfToken: string } };
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const put = await fetch(`${url}/api/system/network`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': user.csrfToken },
        body: JSON.stringify(newConfig),
      });
      expect(put.status).to.equal(200);
      expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
      child.kill('SIGKILL');
      // The daemon is gone: only the timer outside it can bring the old address back, 60 s after the change.
      expect(await eventually(() => ns.addresses()[0] === oldAddress, 75_000), 'the old address is back').to.equal(true);
      expect(ns.defaultGateway()).to.equal(oldGateway);
      expect(existsSync(networkFile())).to.equal(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('rolls back before answering when the daemon starts after the deadline (the outside timer lost, as at a power cut)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-network-restart-'));
    try {
      await start(dataDir);
      await admin.api.systemNetwork.setNetwork({ body: newConfig });
      await box!.close({ keepData: true });
      box = null;
      const changes = path.join(dataDir, 'network/changes');
      for (const id of readdirSync(changes)) process.kill(-Number(readFileSync(path.join(changes, id, 'timer.pid'), 'utf8')), 'SIGKILL');
      expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
      now += 61_000;
      await start(dataDir);
      // Before any request: the start itself rolled back.
      expect(ns.addresses()).to.deep.equal([oldAddress]);
      expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
    } finally {
      await box?.close();
      box = null;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  /** What a rollback leaves when it stops right after its claim (a crash, a power cut): the claim folder, its step, nothing restored. */
  const interruptRollback = (dataDir: string, changeId: string) => {
    const snap = path.join(dataDir, 'network/changes', changeId);
    process.kill(-Number(readFileSync(path.join(snap, 'timer.pid'), 'utf8')), 'SIGKILL');
    mkdirSync(path.join(snap, 'claimed'));
    writeFileSync(path.join(snap, 'claimed/step'), 'files\n');
  };

  it('finishes a rollback that was interrupted after its claim when the change is confirmed, and answers that it is rolled back', async () => {
    await start();
    const pending = await admin.api.systemNetwork.setNetwork({ body: newConfig });
    interruptRollback(box!.dataDir, pending.changeId);
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    await expectProblem(admin.api.systemNetwork.confirmNetwork({ params: { changeId: pending.changeId } }), 'network.change.expired', 409);
    // Rolled back for real, not only said to be.
    expect(ns.addresses()).to.deep.equal([oldAddress]);
    expect(ns.defaultGateway()).to.equal(oldGateway);
    expect(existsSync(networkFile())).to.equal(false);
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
    const logs = await admin.api.logs.list({ query: { search: 'interrupted' } });
    expect(logs.items.map((e) => e.message)).to.include('network change rolled back: an interrupted rollback (stopped at files) was finished');
  });

  it('finishes an interrupted rollback once when reads come at the same time', async () => {
    await start();
    const pending = await admin.api.systemNetwork.setNetwork({ body: newConfig });
    interruptRollback(box!.dataDir, pending.changeId);
    const states = await Promise.all([1, 2, 3, 4].map(() => admin.api.systemNetwork.network()));
    expect(states.map((s) => s.pending)).to.deep.equal([null, null, null, null]);
    expect(ns.addresses()).to.deep.equal([oldAddress]);
    const logs = await admin.api.logs.list({ query: { search: 'interrupted' } });
    expect(logs.items.filter((e) => e.message.startsWith('network change rolled back'))).to.have.length(1);
  });

  it('finishes an interrupted rollback when the daemon starts, before the deadline', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-network-interrupted-'));
    try {
      await start(dataDir);
      const pending = await admin.api.systemNetwork.setNetwork({ body: newConfig });
      await box!.close({ keepData: true });
      box = null;
      interruptRollback(dataDir, pending.changeId);
      await start(dataDir);
      expect(ns.addresses()).to.deep.equal([oldAddress]);
      expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
      expect(readdirSync(path.join(dataDir, 'network/changes'))).to.deep.equal([]);
    } finally {
      await box?.close();
      box = null;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { expect } from 'chai';
import type { NetworkConfig } from '../../shared/src/api/network/network.ts';
import { readBackup, writeBackup } from '../../shared/src/backup/backup-file.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeNamespace, oldAddress, oldGateway, type TestNamespace } from './network-fixture.ts';

const password = 'a long backup passphrase';
const restored: NetworkConfig = {
  hostName: 'cellar-restored',
  nameServers: ['10.88.0.53'],
  interfaces: [
    { name: 'eth0', method: 'static', addresses: ['10.88.0.2/24'], gateway: '10.88.0.1' },
    // A card of the box that wrote the backup, which the namespace does not have.
    { name: 'eth7', method: 'static', addresses: ['10.66.0.2/24'], gateway: null },
  ],
  bonds: [],
  vlans: [],
};

// A restored network part with real ip commands in a network namespace the test makes: staged, never applied for good.
describe('system backup: a restored network part is a change that rolls itself back unless kept', function () {
  this.timeout(120_000);
  let ns: TestNamespace;
  let box: TestDaemon | null = null;
  let admin: TestClient;
  let now = Date.UTC(2026, 10, 29, 3);
  const start = async (dataDir?: string) => {
    box = await startTestDaemon(dataDir ? { dataDir } : {}, {
      clock: { now: () => now },
      restart: () => undefined,
      system: { network: { root: ns.root, namespace: ns.name } },
    });
    admin = await box.signIn();
  };
  /** A backup of this box with the network part of another one. */
  const restore = async () => {
    const content = await readBackup(Buffer.from(await (await admin.api.backup.create({ body: { password } })).arrayBuffer()), password);
    const file = await writeBackup({ ...content, parts: { ...content.parts, network: restored } }, password);
    const summary = await admin.api.backup.inspect({ body: { password, backup: file.toString('base64') } });
    expect(summary.parts.find((p) => p.name === 'network')?.skipped).to.deep.equal(['eth7']);
    return admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['network'] } });
  };

  before(() => expect(process.getuid?.(), 'system tests run as root').to.equal(0));
  beforeEach(() => {
    ns = makeNamespace();
  });
  afterEach(async () => {
    await box?.close();
    box = null;
    ns.close();
  });

  it('applies the restored address at once, keeps waiting through the restart, and is back to the old one after 60 seconds', async () => {
    await start();
    const result = await restore();
    expect(result.skipped).to.deep.equal([{ part: 'network', names: ['eth7'] }]);
    expect(result.networkChange?.addresses).to.deep.equal(['10.88.0.2']);
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    expect(ns.defaultGateway()).to.equal('10.88.0.1');
    const dataDir = box!.dataDir;
    await box!.close({ keepData: true });
    await start(dataDir);
    expect((await admin.api.systemNetwork.network()).pending?.changeId).to.equal(result.networkChange?.changeId);
    now += 60_000;
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
    expect(ns.addresses()).to.deep.equal([oldAddress]);
    expect(ns.defaultGateway()).to.equal(oldGateway);
  });

  it('keeps the restored configuration once confirmed, past the deadline', async () => {
    await start();
    const result = await restore();
    now += 30_000;
    await admin.api.systemNetwork.confirmNetwork({ params: { changeId: result.networkChange!.changeId } });
    now += 120_000;
    const state = await admin.api.systemNetwork.network();
    expect(state.pending).to.equal(null);
    expect(state.configured.interfaces).to.deep.equal([restored.interfaces[0]]);
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
  });
});

import { expect } from 'chai';
import type { BackupSummary } from '../../shared/src/api/backup/backup.ts';
import type { NetworkConfig } from '../../shared/src/api/network/network.ts';
import { readBackup, writeBackup, type BackupContent } from '../../shared/src/backup/backup-file.ts';
import type { DaemonOptions } from '../../daemon/src/daemon-types.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

const backupPassword = 'a long backup passphrase';

/**
 * Issue 32: the network settings join the backup. Development daemons read the machine's real
 * links (`ip -j`) and apply nothing, so the part's rules, the staged change and its 60 seconds
 * (an injected clock) are tested without touching this machine's network.
 */
describe('configuration backup: the network part', function () {
  this.timeout(120_000);
  let now = Date.UTC(2026, 10, 29, 3);
  const options: Omit<DaemonOptions, 'config' | 'env'> = { clock: { now: () => now }, restart: () => undefined };
  let a: TestDaemon;
  let adminA: TestClient;
  let card: string;
  let file: Buffer;
  let confirmed: NetworkConfig;
  const boxes: TestDaemon[] = [];

  const fresh = async (): Promise<{ box: TestDaemon; admin: TestClient }> => {
    const box = await startTestDaemon({}, options);
    boxes.push(box);
    return { box, admin: await box.signIn() };
  };
  const inspect = (admin: TestClient, backup: Buffer): Promise<BackupSummary> =>
    admin.api.backup.inspect({ body: { password: backupPassword, backup: backup.toString('base64') } });
  /** A's backup with its network part replaced. */
  const crafted = async (network: unknown): Promise<Buffer> => {
    const content = await readBackup(file, backupPassword);
    return writeBackup({ ...content, parts: { ...content.parts, network } } as BackupContent, backupPassword);
  };
  const withInterface = (change: Partial<NetworkConfig['interfaces'][number]>): NetworkConfig => ({
    ...confirmed,
    interfaces: [{ ...confirmed.interfaces.find((i) => i.name === card)!, ...change }],
  });

  before(async () => {
    a = await startTestDaemon({}, options);
    adminA = await a.signIn();
    const state = await adminA.api.systemNetwork.network();
    const changeable = state.links.find((l) => l.kind === 'ethernet' && l.changeable);
    if (!changeable) throw new Error('these tests need one Ethernet card on the machine (read only, never changed)');
    card = changeable.name;
    const kept = await adminA.api.systemNetwork.setNetwork({
      body: {
        hostName: 'cellar-hall',
        nameServers: ['192.0.2.53'],
        interfaces: [{ name: card, method: 'static', addresses: ['198.51.100.10/24'], gateway: '198.51.100.1' }],
        bonds: [],
        vlans: [],
      },
    });
    await adminA.api.systemNetwork.confirmNetwork({ params: { changeId: kept.changeId } });
    confirmed = (await adminA.api.systemNetwork.network()).configured;
    // A second change, applied and not confirmed when the backup is made.
    await adminA.api.systemNetwork.setNetwork({ body: { ...confirmed, hostName: 'cellar-unconfirmed' } });
    file = Buffer.from(await (await adminA.api.backup.create({ body: { password: backupPassword } })).arrayBuffer());
  });
  after(async () => {
    await a?.close();
    for (const box of boxes) await box.close();
  });

  it('writes the confirmed configuration, never a change awaiting confirmation', async () => {
    const pending = (await adminA.api.systemNetwork.network()).pending;
    expect(pending).to.not.equal(null);
    expect((await readBackup(file, backupPassword)).parts.network).to.deep.equal(confirmed);
    expect(confirmed.hostName).to.equal('cellar-hall');
    await adminA.api.systemNetwork.revertNetwork({ params: { changeId: pending!.changeId } });
  });

  it('restores onto a fresh box as a change awaiting confirmation that rolls itself back after 60 seconds, through a restart', async () => {
    const { box, admin } = await fresh();
    const before = (await admin.api.systemNetwork.network()).configured;
    const summary = await inspect(admin, file);
    const part = summary.parts.find((p) => p.name === 'network');
    expect(part).to.deep.equal({ name: 'network', counts: { interfaces: 1, bonds: 0, vlans: 0, nameServers: 1 }, restorable: true });
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['network'] } });
    expect(result.restored).to.deep.equal(['network']);
    expect(result.hostFailed).to.deep.equal([]);
    const change = result.networkChange;
    expect(change).to.include({ deadline: new Date(now + 60_000).toISOString(), followToken: null });
    expect(change?.addresses).to.deep.equal(['198.51.100.10']);
    expect(change?.urls).to.deep.equal([`http://198.51.100.10:${new URL(box.url).port}/`]);
    // The restart a restore asks for: the change still awaits confirmation, with its deadline.
    const dataDir = box.dataDir;
    await box.close({ keepData: true });
    boxes.splice(boxes.indexOf(box), 1);
    const again = await startTestDaemon({ dataDir }, options);
    boxes.push(again);
    const adminAgain = await again.signIn();
    const state = await adminAgain.api.systemNetwork.network();
    expect(state.pending).to.deep.include({ changeId: change!.changeId, deadline: change!.deadline });
    expect(state.configured).to.deep.equal(confirmed);
    now += 61_000;
    const after = await adminAgain.api.systemNetwork.network();
    expect(after.pending).to.equal(null);
    expect(after.configured).to.deep.equal(before);
  });

  it('keeps a confirmed restored change, writes it in the next backup, and refuses a restore while a change awaits confirmation', async () => {
    const { admin } = await fresh();
    const summary = await inspect(admin, file);
    const { networkChange } = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['network'] } });
    // A second restore of the network (or of anything with it) is refused while the first awaits confirmation; nothing else is touched.
    const second = await inspect(admin, file);
    await expectProblem(admin.api.backup.restore({ body: { backupId: second.backupId, parts: ['region', 'network'] } }), 'network.change.pending', 409);
    await admin.api.systemNetwork.confirmNetwork({ params: { changeId: networkChange!.changeId } });
    expect((await admin.api.systemNetwork.network()).configured).to.deep.equal(confirmed);
    const backup = Buffer.from(await (await admin.api.backup.create({ body: { password: backupPassword } })).arrayBuffer());
    expect((await readBackup(backup, backupPassword)).parts.network).to.deep.equal(confirmed);
    // The same configuration again: nothing to confirm.
    const same = await admin.api.backup.restore({ body: { backupId: (await inspect(admin, backup)).backupId, parts: ['network'] } });
    expect(same.networkChange).to.equal(null);
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
  });

  it('refuses a hostile network part with the codes a change by hand is refused with, before anything is touched', async () => {
    const refused = async (network: unknown, code: string) =>
      expectProblem(inspect(adminA, await crafted(network)), code, 400).then(undefined, (err: unknown) => {
        throw new Error(`${JSON.stringify(network).slice(0, 200)}: ${String(err)}`);
      });
    await refused(withInterface({ addresses: ['not-an-address'] }), 'backup.part.invalid');
    await refused(withInterface({ addresses: ['010.0.0.1/8'], gateway: null }), 'backup.part.invalid');
    await refused({ ...confirmed, nameServers: ['v1.x'] }, 'backup.part.invalid');
    await refused({ ...confirmed, hostName: 'cellar;reboot' }, 'network.hostname.invalid');
    await refused({ ...confirmed, hostName: '$(reboot)' }, 'network.hostname.invalid');
    await refused({ ...confirmed, hostName: 'a'.repeat(64) }, 'network.hostname.invalid');
    for (const name of ['eth0/../x', '..', '../etc', 'eth0/']) await refused(withInterface({ name }), 'backup.part.invalid');
    await refused({ ...confirmed, vlans: [{ name: 'v10', parent: '../x', id: 10 }] }, 'backup.part.invalid');
    await refused(withInterface({ gateway: '203.0.113.1' }), 'network.gateway.outside_subnet');
    await refused(
      { ...confirmed, interfaces: [...confirmed.interfaces, { name: 'lo', method: 'dhcp', addresses: [], gateway: null }] },
      'network.interface.locked',
    );
    await refused(
      {
        ...confirmed,
        vlans: [{ name: 'v10', parent: card, id: 10 }],
        interfaces: [...confirmed.interfaces, { name: 'v10', method: 'static', addresses: ['198.51.100.200/25'], gateway: null }],
      },
      'network.subnet.overlap',
    );
    await refused({ ...confirmed, interfaces: [...confirmed.interfaces, ...confirmed.interfaces] }, 'network.interface.duplicate');
    await refused({ ...confirmed, wifi: 'on' }, 'backup.part.invalid');
    await refused('rm -rf /', 'backup.part.invalid');
    expect((await adminA.api.systemNetwork.network()).pending).to.equal(null);
  });

  it('leaves out an interface this box does not have, and names it, before the restore and in its answer', async () => {
    const { admin } = await fresh();
    const backup = await crafted({
      ...confirmed,
      interfaces: [
        ...confirmed.interfaces,
        { name: 'nosuchcard0', method: 'static', addresses: ['203.0.113.5/24'], gateway: null },
        { name: 'bond7', method: 'dhcp', addresses: [], gateway: null },
        { name: 'nosuchcard2.5', method: 'dhcp', addresses: [], gateway: null },
      ],
      bonds: [{ name: 'bond7', mode: 'active-backup', members: ['nosuchcard1'] }],
      vlans: [{ name: 'nosuchcard2.5', parent: 'nosuchcard2', id: 5 }],
    });
    const names = ['nosuchcard1', 'bond7', 'nosuchcard2', 'nosuchcard2.5', 'nosuchcard0'];
    const summary = await inspect(admin, backup);
    expect(summary.parts.find((p) => p.name === 'network')).to.deep.include({ skipped: names, counts: { interfaces: 1, bonds: 0, vlans: 0, nameServers: 1 } });
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['network'] } });
    expect(result.skipped).to.deep.equal([{ part: 'network', names }]);
    const state = await admin.api.systemNetwork.network();
    expect(state.pending?.changeId).to.equal(result.networkChange?.changeId);
    expect(state.configured).to.deep.equal(confirmed);
  });
});

import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import { maxWrongCodes, offerLifetimeMs } from '../../daemon/src/areas/replication/pairing-offers.ts';
import type { Pairing, PairingOffer } from '../../shared/src/api/replication/replication.ts';
import { ensureZfsFuse, LoopDisks, sh } from '../system/zfs-fixture.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';

const sshPort = 2222;

/**
 * Issue 33's pairing between two real daemons on loopback: the target serves HTTPS with its own
 * authority and reads a real zfs-fuse pool (the parent of the received datasets must be one of its
 * datasets); the source calls it pinned to the root fingerprint its owner typed.
 */
describe('replication: pairing a source with a target over HTTPS pinned to its root', function () {
  this.timeout(180_000);
  const pool = `crepl${process.pid}`;
  let disks: LoopDisks;
  let offset = 0;
  let target: TestDaemon;
  let source: TestDaemon;
  let targetAdmin: TestClient;
  let sourceAdmin: TestClient;
  let address: string;
  let rootFingerprint: string;
  let hostKey: string;
  let live: TestSocket | undefined;

  const authorizedKeys = () => readFileSync(path.join(target.dataDir, 'replication', 'replica-home', '.ssh', 'authorized_keys'), 'utf8');
  const sourceKeyDirs = () => {
    const dir = path.join(source.dataDir, 'replication', 'pairings');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const offer = (parent = `${pool}/replica`): Promise<PairingOffer> => targetAdmin.api.replication.createOffer({ body: { parent } });
  const pair = (code: string, fingerprint = rootFingerprint): Promise<Pairing> =>
    sourceAdmin.api.replication.pair({ body: { address, code, rootFingerprint: fingerprint, label: 'Office box' } });

  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('the replication pairing test needs root (zfs-fuse on a loop device)');
    await ensureZfsFuse();
    disks = new LoopDisks(pool);
    disks.add(1);
    disks.pools.add(pool);
    sh(['zpool', 'create', '-f', '-m', path.join(disks.work, 'mnt'), pool, disks.loops[0]!]);
    for (const dataset of ['replica', 'homes']) sh(['zfs', 'create', `${pool}/${dataset}`]);
    sh(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', path.join(disks.work, 'host')]);
    hostKey = readFileSync(path.join(disks.work, 'host.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    const clock = { now: () => Date.now() + offset };
    target = await startTestDaemon({ https: true }, { clock, replication: { sshHostKeyFile: path.join(disks.work, 'host.pub'), sshPort } });
    source = await startTestDaemon();
    targetAdmin = await target.signIn();
    sourceAdmin = await source.signIn();
    address = `127.0.0.1:${new URL(target.url).port}`;
    const root = new TlsStore(path.join(target.dataDir, 'tls'), path.join(target.dataDir, 'tls-secret')).rootPem()!;
    // As an owner might type it off the screen: lower case, without colons.
    rootFingerprint = new X509Certificate(root).fingerprint256.replace(/:/g, '').toLowerCase();
  });

  after(async () => {
    live?.close();
    await source?.close();
    await target?.close();
    await disks?.cleanup();
  });

  it('offers a code with the root and SSH host key fingerprints, below a dataset of a pool only', async () => {
    const made = await offer();
    expect(made.code).to.match(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(made.parent).to.equal(`${pool}/replica`);
    expect(made.rootFingerprint.replace(/:/g, '').toLowerCase()).to.equal(rootFingerprint);
    const shown = sh(['ssh-keygen', '-l', '-E', 'sha256', '-f', path.join(disks.work, 'host.pub')]).split(' ')[1];
    expect(made.sshHostKeyFingerprint).to.equal(shown);
    expect(Date.parse(made.expiresAt) - Date.now()).to.be.within(offerLifetimeMs - 60_000, offerLifetimeMs);
    for (const [parent, reason] of [
      [pool, 'pool-root'],
      [`${pool}/homes`, 'home'],
      [`${pool}/apps`, 'missing'],
      [`${pool}/replica/none`, 'missing'],
    ] as const) {
      const err = await expectProblem(offer(parent), 'replication.parent.invalid', 422);
      expect(err.problem.params, parent).to.deep.include({ parent, reason });
    }
  });

  it('pairs: the source holds a 0600 key and the pinned host key, the target authorises the key for the forced command only', async () => {
    live = await connectSocket(source.url, sourceAdmin);
    expect(await live.subscribe('storage/replication')).to.deep.include({ ok: true, snapshot: [] });
    const { code } = await offer();
    const changed = live.nextEvent('storage/replication', 20_000);
    const paired = await pair(code);
    expect(paired).to.deep.include({ role: 'source', label: 'Office box', peerAddress: address, parent: `${pool}/replica` });
    expect(paired.ssh).to.deep.equal({ host: '127.0.0.1', port: sshPort, user: 'cellar-replica' });
    expect(paired.rootFingerprint?.replace(/:/g, '').toLowerCase()).to.equal(rootFingerprint);
    const event = await changed;
    expect(event).to.deep.include({ type: 'changed', data: [paired] });

    const dir = path.join(source.dataDir, 'replication', 'pairings', paired.id);
    expect(statSync(path.join(dir, 'id_ed25519')).mode & 0o777).to.equal(0o600);
    expect(readFileSync(path.join(dir, 'known_hosts'), 'utf8')).to.equal(`[127.0.0.1]:${sshPort} ${hostKey}\n`);
    const sourceKey = readFileSync(path.join(dir, 'id_ed25519.pub'), 'utf8').split(' ').slice(0, 2).join(' ');

    const [accepted] = await targetAdmin.api.replication.pairings();
    expect(accepted).to.deep.include({ role: 'target', peerAddress: '127.0.0.1', parent: `${pool}/replica`, rootFingerprint: null, ssh: null });
    expect(accepted!.keyFingerprint).to.equal(paired.keyFingerprint);
    expect(accepted!.sshHostKeyFingerprint).to.equal(paired.sshHostKeyFingerprint);
    const line = authorizedKeys().trim();
    expect(line.split('\n')).to.have.length(1);
    expect(line).to.match(/^restrict,command="[^"]+ [^"]*receive-command\.ts [0-9a-f-]{36} [^"]+" /);
    expect(line).to.contain(` ${accepted!.id} ${pool}/replica" ${sourceKey} cellar-pairing-${accepted!.id}`);

    // A code works once.
    await expectProblem(pair(code), 'replication.code.wrong', 403);
    expect(sourceKeyDirs()).to.deep.equal([paired.id]);
  });

  it('refuses a target whose root has another fingerprint before sending the code, and keeps no key', async () => {
    const { code } = await offer();
    const err = await expectProblem(pair(code, 'AB'.repeat(32)), 'replication.target.fingerprint', 422);
    expect(err.problem.params).to.deep.include({ address, presented: new X509Certificate(readRoot()).fingerprint256 });
    expect(sourceKeyDirs()).to.have.length(1);
    // The code never left the source: it still pairs with the right fingerprint.
    const paired = await pair(code);
    await sourceAdmin.api.replication.unpair({ params: { id: paired.id } });
  });

  it('refuses a wrong and an expired code, keeping no key on the source', async () => {
    await offer();
    await expectProblem(pair('AAAA-BBBB-CCCC-DDDD'), 'replication.code.wrong', 403);
    const { code } = await offer();
    offset += offerLifetimeMs + 1000;
    await expectProblem(pair(code), 'replication.code.expired', 410);
    expect(sourceKeyDirs()).to.have.length(1);
  });

  it(`stops listening after ${maxWrongCodes} wrong codes until a new offer is made`, async () => {
    const { code } = await offer();
    for (let i = 1; i < maxWrongCodes; i++) await expectProblem(pair('AAAA-BBBB-CCCC-DDDD'), 'replication.code.wrong', 403);
    await expectProblem(pair('AAAA-BBBB-CCCC-DDDD'), 'replication.code.attempts', 429);
    await expectProblem(pair(code), 'replication.code.attempts', 429);
  });

  it('unpairs: the target drops the authorized_keys line, the source its key files', async () => {
    const [onSource] = await sourceAdmin.api.replication.pairings();
    // Two on the target: the one above and the one made after the refused fingerprint.
    const onTarget = await targetAdmin.api.replication.pairings();
    expect(onTarget).to.have.length(2);
    await targetAdmin.api.replication.unpair({ params: { id: onTarget[0]!.id } });
    expect(authorizedKeys()).to.not.contain(onTarget[0]!.id);
    expect(authorizedKeys()).to.contain(`cellar-pairing-${onTarget[1]!.id}\n`);
    await targetAdmin.api.replication.unpair({ params: { id: onTarget[1]!.id } });
    expect(authorizedKeys()).to.equal('');
    await sourceAdmin.api.replication.unpair({ params: { id: onSource!.id } });
    expect(sourceKeyDirs()).to.deep.equal([]);
    expect(await sourceAdmin.api.replication.pairings()).to.deep.equal([]);
    await expectProblem(sourceAdmin.api.replication.unpair({ params: { id: onSource!.id } }), 'replication.pairing.not_found', 404);
  });

  function readRoot(): string {
    return new TlsStore(path.join(target.dataDir, 'tls'), path.join(target.dataDir, 'tls-secret')).rootPem()!;
  }
});

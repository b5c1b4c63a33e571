import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import type { BackupSummary } from '../../shared/src/api/backup/backup.ts';
import { readBackup, writeBackup, type BackupContent } from '../../shared/src/backup/backup-file.ts';
import type { Row } from '../../daemon/src/areas/backup-rows.ts';
import type { ProxyState } from '../../daemon/src/areas/proxy/proxy-records.ts';
import type { StoreBackup } from '../../daemon/src/areas/store/store.backup.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';

const backupPassword = 'a long backup passphrase';

type Parts = {
  users: { users: Row[] };
  groups: { groups: Row[]; members: Row[] };
  shares: { shares: Row[] };
  proxy: ProxyState;
  store: StoreBackup;
};

/**
 * Issue 27 point 3: a backup is sealed with a password its maker chooses, so its rows are hostile.
 * Inspect refuses what the same operations refuse by hand (a share over /etc, a user sshd, a group
 * sudo), each with its code, before anything is touched; the same backup made legitimately restores.
 */
describe('configuration backup: what a crafted backup cannot restore', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let admin: TestClient;
  let real: BackupContent;

  const inspect = (content: BackupContent): Promise<BackupSummary> =>
    writeBackup(content, backupPassword).then((file) => admin.api.backup.inspect({ body: { password: backupPassword, backup: file.toString('base64') } }));
  /** The real backup with one part's rows changed. */
  const crafted = (change: (parts: Parts) => void): BackupContent => {
    const parts = structuredClone(real.parts) as unknown as Parts;
    change(parts);
    return { ...real, parts: parts as unknown as BackupContent['parts'] };
  };
  const rowOf = (rows: Row[], key: string, value: string) => rows.find((r) => r[key] === value) as Row;

  before(async () => {
    box = await startTestDaemon({}, { restart: () => undefined });
    admin = await box.signIn();
    const mallory = await admin.api.users.create({ body: { username: 'mallory', password: 'mallory password 1' } });
    await admin.api.groups.create({ body: { name: 'friends', memberIds: [mallory.id] } });
    const { share } = await makeShare(admin, 'Family');
    await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'user', subjectId: mallory.id, level: 'readWrite' }] } });
    // The reverse proxy: a host with a certificate of the box's authority and a Basic Auth user, a stream.
    const target = { scheme: 'http' as const, host: '127.0.0.1', port: 9 };
    await admin.api.proxy.createHost({
      body: { domains: ['cam.local'], target, tls: { mode: 'authority' }, basicAuth: [{ username: 'carol', password: 'carol secret' }] },
    });
    await admin.api.proxy.createHost({ body: { domains: ['plain.local'], target, tls: { mode: 'none' } } });
    await admin.api.proxy.createStream({ body: { port: 2222, protocols: ['tcp'], target: { host: '127.0.0.1', port: 22 } } });
    // A custom Store catalog (its fetch fails at once: nothing listens on port 9).
    await admin.api.store.addCatalog({ body: { url: 'http://127.0.0.1:9/family/catalog.git' } });
    const file = Buffer.from(await (await admin.api.backup.create({ body: { password: backupPassword } })).arrayBuffer());
    real = await readBackup(file, backupPassword);
  });
  after(async () => {
    await box?.close();
    removeTempFolders();
  });

  it('refuses a share whose folder is a system folder, reaches one through a link, or lies in the data directory', async () => {
    const link = path.join(tempFolder(), 'innocent');
    symlinkSync('/etc', link);
    const cases: [string, string][] = [
      ['/etc', 'system'],
      ['/', 'system'],
      ['/var', 'system'],
      ['/root/.ssh', 'system'],
      [link, 'link'],
      [path.join(box.dataDir, 'tls'), 'dataDirectory'],
      ['relative/folder', 'notAbsolute'],
      ['/tmp/../etc', 'notAbsolute'],
    ];
    for (const [hostPath, reason] of cases) {
      const content = crafted((p) => (rowOf(p.shares.shares, 'name', 'Family').host_path = hostPath));
      const err = await expectProblem(inspect(content), 'backup.share.folder_refused', 400);
      expect(err.problem.params, hostPath).to.deep.equal({ share: 'Family', reason });
    }
    // Two shares, one inside the other: no share reaches into another by hand either.
    const nested = crafted((p) => {
      const family = rowOf(p.shares.shares, 'name', 'Family');
      p.shares.shares.push({ ...family, id: 99, name: 'Inside', host_path: path.join(String(family.host_path), 'sub') });
    });
    expect((await expectProblem(inspect(nested), 'backup.share.folder_refused', 400)).problem.params).to.deep.equal({ share: 'Inside', reason: 'overlaps' });
  });

  it('refuses a share over a system folder made by hand, with the same rule', async () => {
    const err = await expectProblem(admin.api.shares.create({ body: { name: 'Config', hostPath: '/etc' } }), 'fs.share.folder_invalid', 400);
    expect(err.problem.params).to.deep.equal({ reason: 'system' });
  });

  it('refuses a user named as a system account (sshd, root, daemon) or a group (sudo, root)', async () => {
    for (const name of ['sshd', 'root', 'daemon']) {
      const err = await expectProblem(inspect(crafted((p) => (rowOf(p.users.users, 'username', 'mallory').username = name))), 'backup.account.reserved', 400);
      expect(err.problem.params).to.deep.equal({ kind: 'user', name });
    }
    for (const name of ['sudo', 'root']) {
      const err = await expectProblem(inspect(crafted((p) => (rowOf(p.groups.groups, 'name', 'friends').name = name))), 'backup.account.reserved', 400);
      expect(err.problem.params).to.deep.equal({ kind: 'group', name });
    }
  });

  it("refuses built-in groups that are not this box's: the group of everybody missing, or a system group passed as built-in", async () => {
    let err = await expectProblem(inspect(crafted((p) => (p.groups.groups = p.groups.groups.filter((g) => g.built_in !== 1)))), 'backup.group.built_in', 400);
    expect(err.problem.params).to.deep.equal({ name: 'users' });
    err = await expectProblem(
      inspect(crafted((p) => Object.assign(rowOf(p.groups.groups, 'name', 'friends'), { name: 'wheel', gid: 10, built_in: 1 }))),
      'backup.group.built_in',
      400,
    );
    expect(err.problem.params).to.deep.equal({ name: 'wheel' });
  });

  it('refuses rows that would collide in their table (a restore would fail halfway): two users with one uid, two groups with one name', async () => {
    let err = await expectProblem(
      inspect(crafted((p) => p.users.users.push({ ...rowOf(p.users.users, 'username', 'mallory'), id: 98, username: 'trudy' }))),
      'backup.part.invalid',
      400,
    );
    expect(err.problem.detail).to.include('same uid');
    err = await expectProblem(
      inspect(crafted((p) => p.groups.groups.push({ ...rowOf(p.groups.groups, 'name', 'friends'), id: 98, gid: 39998 }))),
      'backup.part.invalid',
      400,
    );
    expect(err.problem.detail).to.include('same name');
  });

  it('refuses proxy entries the proxy refuses by hand: names that reach into nginx, a name twice, a taken port, a foreign key, a bare password', async () => {
    const cam = (p: Parts) => p.proxy.hosts.find((h) => h.domains[0] === 'cam.local') as ProxyState['hosts'][number];
    const plain = (p: Parts) => p.proxy.hosts.find((h) => h.domains[0] === 'plain.local') as ProxyState['hosts'][number];
    let err = await expectProblem(inspect(crafted((p) => (cam(p).domains = ['a.local; include /etc/passwd']))), 'backup.part.invalid', 400);
    expect(err.problem.params).to.deep.equal({ part: 'proxy' });
    await expectProblem(inspect(crafted((p) => (plain(p).domains = ['cam.local']))), 'proxy.domain.taken', 409);
    // The proxy's own HTTPS port (8443 in development mode), and one stream's port and protocol twice.
    await expectProblem(inspect(crafted((p) => (p.proxy.streams[0]!.port = 8443))), 'proxy.port.taken', 409);
    await expectProblem(inspect(crafted((p) => p.proxy.streams.push({ ...p.proxy.streams[0]!, id: 999 }))), 'proxy.port.taken', 409);
    // Another certificate's key, and a host that says it has none while carrying one.
    err = await expectProblem(
      inspect(
        crafted((p) => {
          const certificate = cam(p).tls.certificate!;
          certificate.privateKeyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
        }),
      ),
      'backup.part.invalid',
      400,
    );
    expect(err.problem.detail).to.include('tls.key.mismatch');
    await expectProblem(inspect(crafted((p) => (plain(p).tls.certificate = cam(p).tls.certificate))), 'backup.part.invalid', 400);
    // A Basic Auth password in the clear instead of its hash, and nginx directives in a target.
    await expectProblem(inspect(crafted((p) => (cam(p).basicAuth[0]!.hash = 'carol secret'))), 'backup.part.invalid', 400);
    await expectProblem(inspect(crafted((p) => (cam(p).target.host = '127.0.0.1; return 200'))), 'backup.part.invalid', 400);
    // Nothing of it was kept: the real proxy part inspects.
    expect((await inspect(real)).parts.find((p) => p.name === 'proxy')?.counts).to.deep.equal({ hosts: 2, redirects: 0, streams: 1 });
  });

  it("restores the proxy part alone, its hosts by id, and drops the sign-in cookies the box's hosts had given", async () => {
    const db = box.daemon.db;
    await db.query("INSERT INTO proxy_grants (token_hash, host_id, user_id, sid, expires_at) VALUES ('hash', 1, 1, 'sid', ?)", {
      replacements: [Date.now() + 3_600_000],
    });
    // The box's hosts changed since the backup: the restore brings back the backed-up ones, with their ids.
    await admin.api.proxy.createHost({
      body: { domains: ['late.local'], target: { scheme: 'http', host: '127.0.0.1', port: 9 }, tls: { mode: 'none' } },
    });
    const summary = await inspect(real);
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['proxy'] } });
    expect(result.restored).to.deep.equal(['proxy']);
    const hosts = (await admin.api.proxy.settings()).hosts;
    expect(hosts.map((h) => [h.id, h.domains])).to.deep.equal((real.parts.proxy as ProxyState).hosts.map((h) => [h.id, h.domains]));
    expect(hosts.map((h) => h.domains[0])).not.to.include('late.local');
    const [grants] = await db.query('SELECT count(*) AS n FROM proxy_grants');
    expect(grants).to.deep.equal([{ n: 0 }]);
  });

  it('refuses Store catalogs the Store refuses by hand: an address git would read as an option, one address twice, the id of the project catalog', async () => {
    const custom = (p: Parts) => p.store.catalogs.find((k) => !k.builtIn) as StoreBackup['catalogs'][number];
    let err = await expectProblem(inspect(crafted((p) => (custom(p).url = '--upload-pack=touch /tmp/owned'))), 'backup.part.invalid', 400);
    expect(err.problem.params).to.deep.equal({ part: 'store' });
    await expectProblem(inspect(crafted((p) => p.store.catalogs.push({ ...custom(p), catalogId: 'custom-99' }))), 'store.catalog.exists', 409);
    err = await expectProblem(inspect(crafted((p) => (custom(p).catalogId = 'cellar'))), 'backup.part.invalid', 400);
    expect(err.problem.detail).to.include('cellar');
    await expectProblem(inspect(crafted((p) => (custom(p).readToken = 'no token at all'))), 'backup.part.invalid', 400);
    // A project catalog this box does not know is left out, not taken with the file's address.
    const foreign = await inspect(crafted((p) => p.store.catalogs.push({ ...custom(p), catalogId: 'elsewhere', name: 'Elsewhere', builtIn: true })));
    expect(foreign.parts.find((p) => p.name === 'store')?.skipped).to.deep.equal(['Elsewhere']);
  });

  it('the crafted backup of issue 27 (a share over /etc for mallory, a user sshd, a group sudo) touches nothing; the real one restores', async () => {
    const attack = crafted((p) => {
      rowOf(p.shares.shares, 'name', 'Family').host_path = '/etc';
      rowOf(p.users.users, 'username', 'mallory').username = 'sshd';
      rowOf(p.groups.groups, 'name', 'friends').name = 'sudo';
    });
    const shares = async (client: TestClient) => (await client.api.shares.list()).map((s) => [s.name, s.hostPath, s.kind]);
    const sharesBefore = await shares(admin);
    await expectProblem(inspect(attack), 'backup.account.reserved', 400);
    expect(await shares(admin)).to.deep.equal(sharesBefore);

    const summary = await inspect(real);
    expect(summary.parts.every((p) => p.restorable)).to.equal(true);
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['users', 'groups', 'permissions', 'shares'] } });
    expect(result.restored).to.deep.equal(['users', 'groups', 'permissions', 'shares']);
    const again = await box.signIn();
    expect(await shares(again)).to.deep.equal(sharesBefore);
    expect((await again.api.groups.list()).map((g) => g.name)).to.have.members(['users', 'friends']);
  });
});

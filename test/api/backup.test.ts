import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { BackupSummary } from '../../shared/src/api/backup/backup.ts';
import { readBackup, writeBackup } from '../../shared/src/backup/backup-file.ts';
import { TlsStore, type TlsSnapshot } from '../../daemon/src/areas/tls/tls-store.ts';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

const backupPassword = 'a long backup passphrase';

async function download(admin: TestClient, password = backupPassword): Promise<Buffer> {
  return Buffer.from(await (await admin.api.backup.create({ body: { password } })).arrayBuffer());
}

function inspect(admin: TestClient, file: Buffer, password = backupPassword): Promise<BackupSummary> {
  return admin.api.backup.inspect({ body: { password, backup: file.toString('base64') } });
}

describe('configuration backup, inspect and restore', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let admin: TestClient;
  let restarts = 0;
  const clock = { at: Date.now(), now: () => clock.at };

  before(async () => {
    box = await startTestDaemon({}, { clock, restart: () => void restarts++ });
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  it('downloads one encrypted file that keeps no name in the clear', async () => {
    await admin.api.users.create({ body: { username: 'bob', password: 'bob password 1', smb: true } });
    const response = await admin.request('POST', '/api/system/backup', { body: { password: backupPassword } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/octet-stream');
    expect(response.headers.get('content-disposition')).to.match(/^attachment; filename="?[\w.-]+\.cellarbackup"?$/);
    const file = Buffer.from(await response.arrayBuffer());
    expect(file.subarray(0, 8).toString('ascii')).to.equal('CELLARBK');
    expect(file.includes(Buffer.from('bob'))).to.equal(false);
  });

  it('refuses a weak password with the rules of users, bad bodies, the unauthenticated and non-administrators', async () => {
    for (const password of ['short', 'admin12345', 'administrator']) {
      const err = await expectProblem(admin.api.backup.create({ body: { password } }), 'auth.password.weak', 400);
      expect(err.problem.params).to.have.property('reason');
    }
    for (const body of [{}, { password: '' }, { password: 5 }, { password: 'x'.repeat(2000) }])
      await expectProblem(admin.api.backup.create({ body: body as never }), 'request.body.invalid', 400);
    for (const body of [{ password: 'x' }, { password: 'x', backup: '%%%' }, { backup: 'AAAA' }])
      await expectProblem(admin.api.backup.inspect({ body: body as never }), 'request.body.invalid', 400);
    for (const body of [
      { backupId: 'x', parts: ['region'] },
      { backupId: '0'.repeat(32), parts: [] },
      { backupId: '0'.repeat(32), parts: ['disks'] },
    ])
      await expectProblem(admin.api.backup.restore({ body: body as never }), 'request.body.invalid', 400);
    const anonymous = box.client();
    await expectProblem(anonymous.api.backup.create({ body: { password: backupPassword } }), 'auth.session.required', 401);
    await expectProblem(anonymous.api.backup.inspect({ body: { password: 'x', backup: 'AAAA' } }), 'auth.session.required', 401);
    await expectProblem(anonymous.api.backup.restore({ body: { backupId: '0'.repeat(32), parts: ['region'] } }), 'auth.session.required', 401);
    await admin.api.users.create({ body: { username: 'ivy', password: 'ivy password 1' } });
    const ivy = await box.signIn('ivy', 'ivy password 1');
    await expectProblem(ivy.api.backup.create({ body: { password: backupPassword } }), 'auth.permission.denied', 403);
    await expectProblem(ivy.api.backup.inspect({ body: { password: 'x', backup: 'AAAA' } }), 'auth.permission.denied', 403);
    await expectProblem(ivy.api.backup.restore({ body: { backupId: '0'.repeat(32), parts: ['region'] } }), 'auth.permission.denied', 403);
  });

  it('inspects: every part checked and counted, with the box and when', async () => {
    const groups = await admin.api.groups.create({ body: { name: 'family', memberIds: [] } });
    await admin.api.permissions.setGroupGrants({ params: { groupId: groups.id }, body: { rights: ['sftp'] } });
    const { share } = await makeShare(admin, 'Photos');
    await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'group', subjectId: groups.id, level: 'read' }] } });
    const summary = await inspect(admin, await download(admin));
    expect(summary.backupId).to.match(/^[0-9a-f]{32}$/);
    expect(Date.parse(summary.expiresAt) - clock.now()).to.equal(15 * 60_000);
    expect(summary.box.version).to.be.a('string').that.is.not.empty;
    expect(Date.parse(summary.createdAt)).to.equal(clock.now());
    const counts = Object.fromEntries(summary.parts.map((p) => [p.name, p.counts]));
    expect(Object.keys(counts)).to.have.members([
      'users',
      'groups',
      'permissions',
      'shares',
      'storage',
      'region',
      'ssh',
      'tls',
      'apps',
      'proxy',
      'store',
      'network',
    ]);
    expect(counts.tls).to.have.keys(['authority', 'customCertificates', 'issuedCertificates']);
    expect(counts.users).to.include({ users: 3, administrators: 1 });
    expect(counts.groups).to.include({ groups: 1 });
    expect(counts.permissions?.grants).to.be.at.least(2);
    expect(counts.shares).to.include({ shares: 1, shareGrants: 1 });
    expect(counts.network).to.have.keys(['interfaces', 'bonds', 'vlans', 'nameServers']);
    expect(summary.parts.every((p) => p.restorable)).to.equal(true);
    expect(summary.sharesWithoutDataset).to.deep.equal([]);
  });

  it('tells a wrong password, a changed byte, a cut file and a file of another kind apart', async () => {
    const file = await download(admin);
    await expectProblem(inspect(admin, file, 'not the password at all'), 'backup.password.wrong', 400);
    const changed = Buffer.from(file);
    changed[file.length - 40] = (changed[file.length - 40] ?? 0) ^ 0xff;
    await expectProblem(inspect(admin, changed), 'backup.file.damaged', 400);
    await expectProblem(inspect(admin, file.subarray(0, file.length - 7)), 'backup.file.damaged', 400);
    await expectProblem(inspect(admin, Buffer.from('just some text, not a backup file at all, long enough for a header')), 'backup.file.not_backup', 400);
    const future = Buffer.from(file);
    future.writeUInt16BE(9, 8);
    const err = await expectProblem(inspect(admin, future), 'backup.file.version_unsupported', 400);
    expect(err.problem.params).to.deep.equal({ version: 9 });
  });

  it('refuses a part that does not hold what it must, and shows parts of a newer version as not restorable', async () => {
    const box0 = { name: 'old', version: '0.0.1' };
    const hostile = await writeBackup(
      { createdAt: new Date().toISOString(), box: box0, parts: { users: { users: [{ id: 1, username: 'root', uid: 0 }] } } },
      backupPassword,
    );
    const err = await expectProblem(inspect(admin, hostile), 'backup.part.invalid', 400);
    expect(err.problem.params).to.deep.equal({ part: 'users' });
    const region = await writeBackup(
      { createdAt: new Date().toISOString(), box: box0, parts: { region: { language: 'de', region: 'AT' }, future: { x: 1 } } },
      backupPassword,
    );
    const summary = await inspect(admin, region);
    expect(summary.parts).to.deep.equal([
      { name: 'region', counts: { settings: 1 }, restorable: true },
      { name: 'future', counts: {}, restorable: false },
    ]);
    const absent = await expectProblem(
      admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['users', 'region'] } }),
      'backup.part.not_in_backup',
      400,
    );
    expect(absent.problem.params).to.deep.equal({ parts: ['users'] });
  });

  it('keeps an inspected backup 15 minutes, for the administrator who inspected it only', async () => {
    const file = await download(admin);
    const first = await inspect(admin, file);
    await admin.api.users.create({ body: { username: 'olga', password: 'olga password 1', admin: true } });
    const olga = await box.signIn('olga', 'olga password 1');
    await expectProblem(olga.api.backup.restore({ body: { backupId: first.backupId, parts: ['region'] } }), 'backup.inspected.not_found', 404);
    clock.at += 15 * 60_000;
    await expectProblem(admin.api.backup.restore({ body: { backupId: first.backupId, parts: ['region'] } }), 'backup.inspected.not_found', 404);
    const second = await inspect(admin, file);
    clock.at += 15 * 60_000 - 1000;
    const before = restarts;
    const result = await admin.api.backup.restore({ body: { backupId: second.backupId, parts: ['region'] } });
    expect(result).to.deep.equal({
      restored: ['region'],
      signedOut: false,
      sharesWithoutDataset: [],
      hostFailed: [],
      skipped: [],
      networkChange: null,
      restarting: true,
    });
    expect(restarts).to.equal(before + 1);
    // Restored once: the same backup id is gone.
    await expectProblem(admin.api.backup.restore({ body: { backupId: second.backupId, parts: ['region'] } }), 'backup.inspected.not_found', 404);
  });

  it('restores one of two backups sent at once; the other is refused while it runs', async () => {
    const file = await download(admin);
    const ids = [(await inspect(admin, file)).backupId, (await inspect(admin, file)).backupId];
    const before = restarts;
    const answers = await Promise.all(ids.map((backupId) => admin.request('POST', '/api/system/backup/restore', { body: { backupId, parts: ['region'] } })));
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409]);
    expect(((await answers.find((a) => a.status === 409)!.json()) as { code: string }).code).to.equal('backup.restore.running');
    expect(restarts).to.equal(before + 1);
  });

  it('restores regional settings alone, leaving users and sessions as they are', async () => {
    await admin.api.system.setRegion({ body: { language: 'de', region: 'CH' } });
    const file = await download(admin);
    await admin.api.system.setRegion({ body: { language: 'en', region: null } });
    await admin.api.users.create({ body: { username: 'paula', password: 'paula password 1' } });
    const summary = await inspect(admin, file);
    await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['region'] } });
    expect(await admin.api.system.region()).to.deep.equal({ language: 'de', region: 'CH' });
    expect((await admin.api.users.list()).map((u) => u.username)).to.include('paula');
  });

  it('refuses a certificates part whose key does not read, before anything is restored', async () => {
    await admin.api.tls.settings();
    const snapshot = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).snapshot();
    const broken = {
      ...snapshot,
      authority: { ...snapshot.authority!, intermediateKeyPem: '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n' },
    };
    const file = await writeBackup({ createdAt: new Date().toISOString(), box: { name: 'old', version: '0.0.1' }, parts: { tls: broken } }, backupPassword);
    const err = await expectProblem(inspect(admin, file), 'backup.part.invalid', 400);
    expect(err.problem.params).to.deep.equal({ part: 'tls' });
    expect(JSON.stringify(err.problem)).to.not.include('BEGIN');
  });

  it("refuses an authority whose local domain or scope is a public domain at inspect, as a new authority's is", async () => {
    await admin.api.tls.settings();
    // A real backup of this box, its certificates part changed as an old or tampered backup could hold it.
    const real = await readBackup(await download(admin), backupPassword);
    const tls = real.parts.tls as TlsSnapshot;
    const tampered = (authority: Partial<NonNullable<TlsSnapshot['authority']>>) =>
      writeBackup({ ...real, parts: { ...real.parts, tls: { ...tls, authority: { ...tls.authority!, ...authority } } } }, backupPassword);
    const scope = tls.authority!.scope;
    let err = await expectProblem(
      inspect(admin, await tampered({ localDomain: 'com', scope: { ...scope, dnsNames: ['cellar', 'com', 'localhost'] } })),
      'tls.domain.public',
      422,
    );
    expect(err.problem.params).to.deep.equal({ domain: 'com' });
    err = await expectProblem(inspect(admin, await tampered({ localDomain: 'co.uk' })), 'tls.domain.public', 422);
    expect(err.problem.params).to.deep.equal({ domain: 'co.uk' });
    // The local domain kept, the scope widened on its own.
    err = await expectProblem(inspect(admin, await tampered({ scope: { ...scope, dnsNames: [...scope.dnsNames, 'box'] } })), 'tls.domain.public', 422);
    expect(err.problem.params).to.deep.equal({ domain: 'box' });
    err = await expectProblem(inspect(admin, await tampered({ scope: { ...scope, ipRanges: [...scope.ipRanges, '0.0.0.0/0'] } })), 'backup.part.invalid', 400);
    expect(err.problem.params).to.deep.equal({ part: 'tls' });
    // A scope the intermediate's name constraints do not hold: the box would issue for names its devices refuse, or the other way round.
    err = await expectProblem(
      inspect(admin, await tampered({ scope: { ...scope, dnsNames: [...scope.dnsNames, 'nas.example.org'] } })),
      'backup.part.invalid',
      400,
    );
    expect(err.problem.detail).to.include('name constraints');
    // The untouched backup still inspects.
    expect((await inspect(admin, await writeBackup(real, backupPassword))).parts.find((p) => p.name === 'tls')?.restorable).to.equal(true);
  });

  it('parses each SSH host key at inspect: a corrupted one, or one that is not its public key, is refused by file name', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cellar-backup-ssh-'));
    try {
      const key = (name: string) => {
        execFileSync('ssh-keygen', ['-q', '-t', name === 'ssh_host_rsa_key' ? 'rsa' : 'ed25519', '-N', '', '-C', '', '-f', path.join(dir, name)]);
        return { name, privateKey: readFileSync(path.join(dir, name), 'utf8'), publicKey: readFileSync(path.join(dir, `${name}.pub`), 'utf8') };
      };
      const ed25519 = key('ssh_host_ed25519_key');
      const rsa = key('ssh_host_rsa_key');
      const backup = (keys: unknown[]) =>
        writeBackup({ createdAt: new Date().toISOString(), box: { name: 'old', version: '0.0.1' }, parts: { ssh: keys } }, backupPassword);
      expect((await inspect(admin, await backup([ed25519, rsa]))).parts).to.deep.equal([{ name: 'ssh', counts: { hostKeys: 2 }, restorable: true }]);

      // Half the key's lines lost, its frame kept: it still looks like a key, and only a parse finds it broken.
      const lines = rsa.privateKey.trim().split('\n');
      const cut = [...lines.slice(0, lines.length / 2), lines.at(-1)!].join('\n') + '\n';
      let err = await expectProblem(inspect(admin, await backup([ed25519, { ...rsa, privateKey: cut }])), 'backup.ssh.key_invalid', 400);
      expect(err.problem.params).to.deep.equal({ file: 'ssh_host_rsa_key' });
      expect(JSON.stringify(err.problem)).to.not.include('BEGIN');
      err = await expectProblem(inspect(admin, await backup([{ ...ed25519, publicKey: rsa.publicKey }])), 'backup.ssh.key_invalid', 400);
      expect(err.problem.params).to.deep.equal({ file: 'ssh_host_ed25519_key' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("restores the box's name with the region, and the certificates and the authority", async () => {
    const setName = (name: string) =>
      box.daemon.db.query(
        "INSERT INTO system_settings (key, value, updated_at) VALUES ('boxName', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        { replacements: [JSON.stringify(name), new Date().toISOString()] },
      );
    await setName('Cellar in the hall');
    await admin.api.tls.issue({ body: { names: ['printer.local'] } });
    const before = await admin.api.tls.settings();
    const file = await download(admin);
    await setName('somewhere else');
    await admin.api.tls.createAuthority({ body: {} });
    expect((await admin.api.tls.settings()).authority.root.sha256Fingerprint).to.not.equal(before.authority.root.sha256Fingerprint);
    const summary = await inspect(admin, file);
    expect(summary.parts.find((p) => p.name === 'tls')?.counts).to.deep.equal({ authority: 1, customCertificates: 0, issuedCertificates: 1 });
    expect(summary.parts.find((p) => p.name === 'region')?.counts).to.deep.equal({ settings: 2 });
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['region', 'tls'] } });
    expect(result).to.include({ signedOut: false, restarting: true });
    expect(result.hostFailed).to.deep.equal([]);
    expect((await admin.api.system.setup()).boxName).to.equal('Cellar in the hall');
    // The TLS folder holds the backup's authority and issued certificate; the restart that follows serves them.
    const restored = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).snapshot();
    expect(new X509Certificate(restored.authority?.rootPem ?? '').fingerprint256).to.equal(before.authority.root.sha256Fingerprint);
    expect(restored.issued.map((c) => c.id)).to.deep.equal(before.issued.map((c) => c.id));
  });

  it('restores users, groups, grants and shares: old passwords and uids come back, everybody is signed out', async () => {
    const before = Object.fromEntries((await admin.api.users.list()).map((u) => [u.username, u]));
    const file = await download(admin);
    const bobId = before.bob?.id as number;
    await admin.api.users.resetPassword({ params: { userId: bobId }, body: { password: 'bob new password 2' } });
    await admin.api.users.remove({ params: { userId: before.ivy?.id as number }, query: { home: 'keep' } });
    const quentin = await admin.api.users.create({ body: { username: 'quentin', password: 'quentin password 1' } });
    const family = (await admin.api.groups.list()).find((g) => g.name === 'family');
    await admin.api.groups.remove({ params: { groupId: family?.id as number } });
    const summary = await inspect(admin, file);
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['users', 'groups', 'permissions', 'shares'] } });
    expect(result).to.include({ signedOut: true, restarting: true });
    expect(result.restored).to.deep.equal(['users', 'groups', 'permissions', 'shares']);
    await expectProblem(admin.api.users.list(), 'auth.session.required', 401);

    const again = await box.signIn('admin', adminPassword);
    const after = Object.fromEntries((await again.api.users.list()).map((u) => [u.username, u]));
    expect(Object.keys(after)).to.have.members(Object.keys(before));
    for (const name of Object.keys(before)) expect(after[name]?.uid, name).to.equal(before[name]?.uid);
    await box.signIn('bob', 'bob password 1');
    await expectProblem(box.signIn('bob', 'bob new password 2'), 'auth.credentials.invalid', 401);
    await expectProblem(box.signIn('quentin', 'quentin password 1'), 'auth.credentials.invalid', 401);
    // Quentin's uid stays given out: the next user gets a new one.
    const next = await again.api.users.create({ body: { username: 'rosa', password: 'rosa password 1' } });
    expect(next.uid).to.be.above(quentin.uid);
    const restoredFamily = (await again.api.groups.list()).find((g) => g.name === 'family');
    expect(restoredFamily?.gid).to.equal(family?.gid);
    expect((await again.api.permissions.groupGrants({ params: { groupId: restoredFamily?.id as number } })).rights).to.include('sftp');
    const photos = (await again.api.shares.list()).find((s) => s.name === 'Photos');
    expect((await again.api.shares.grants({ params: { shareId: photos?.id as number } })).grants).to.deep.equal([
      { subjectType: 'group', subjectId: restoredFamily?.id, level: 'read' },
    ]);
    admin = again;
  });

  it('says which shares have no dataset (folder) on this box', async () => {
    const { share, folder } = await makeShare(admin, 'Gone');
    const file = await download(admin);
    rmSync(folder, { recursive: true, force: true });
    const summary = await inspect(admin, file);
    expect(summary.sharesWithoutDataset).to.deep.equal([{ name: 'Gone', dataset: null, hostPath: share.hostPath }]);
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['shares'] } });
    expect(result.sharesWithoutDataset).to.deep.equal(summary.sharesWithoutDataset);
  });
});

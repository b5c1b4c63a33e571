import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { FileServicesDeployment } from '../../daemon/src/host/file-services/file-services.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { example, installApp, storageApp } from '../helpers/storage-apps.ts';

/**
 * Storage mappings on the disk (root, development mode with the file services applying for
 * real on a folder share, no ZFS): the app's real account reads its read mapping, writes its
 * read-write one and nothing else of the share; the entries survive a fresh share-wide pass and
 * go when the app is switched off, loses the files permission or is unmapped.
 */
describe('app storage mappings on the disk (root, real accounts and ACLs)', function () {
  this.timeout(120_000);
  const root = `/srv/cellar-appacl-${process.pid}`;
  const folder = path.join(root, 'share');
  const appId = example.id;
  // Far from the uids other system tests take (app40000, app40001): the test's first app gets 40050.
  const uid = 40050;
  const account = `app${uid}`;
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  const asApp = (...argv: string[]) => run('runuser', ['-u', account, '--', ...argv]);
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let madeAdmin = false;

  const deployment: FileServicesDeployment = {
    smb: {
      confPath: path.join(root, 'samba', 'smb.conf'),
      globals: [
        ['server role', 'standalone server'],
        ['private dir', path.join(root, 'samba')],
        ['lock directory', path.join(root, 'samba')],
        ['state directory', path.join(root, 'samba')],
        ['cache directory', path.join(root, 'samba')],
        ['pid directory', path.join(root, 'samba')],
      ],
      reload: ['true'],
    },
    sftp: {
      sftpGroup: 'users',
      accountsGroup: 'users',
      chrootBase: path.join(root, 'chroots'),
      confPath: path.join(root, 'ssh', 'cellar-sftp.conf'),
      check: ['true'],
      reload: ['true'],
    },
    shareGroupPrefix: `cfas${process.pid}-share-`,
  };

  /** Waits until the app's entry on `rel` is present (or absent): the file services apply after a quiet time. */
  const aclSettles = async (rel: string, present: boolean) => {
    const until = Date.now() + 15_000;
    let acl = '';
    while (Date.now() < until) {
      acl = run('getfacl', ['-p', '-c', path.join(folder, rel)]).stdout;
      // The access entry (a folder's default entry is another line: `default:user:...`).
      if (new RegExp(`^user:${account}:`, 'm').test(acl) === present) return acl;
      await new Promise((r) => setTimeout(r, 100));
    }
    return expect.fail(`${rel}: the entry of ${account} is ${present ? 'missing' : 'still there'}:\n${acl}`);
  };
  const canRead = (rel: string) => asApp('cat', path.join(folder, rel)).status === 0;
  const canWrite = (rel: string) => asApp('sh', '-c', 'echo app > "$1"', 'sh', path.join(folder, rel)).status === 0;

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    expect(run('which', ['setfacl']).status, 'setfacl is installed (apt-get install acl)').to.equal(0);
    rmSync(root, { recursive: true, force: true });
    for (const dir of ['samba', 'ssh', 'share/greetings', 'share/photos/2026', 'share/private'])
      mkdirSync(path.join(root, dir), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(folder, 'notes.txt'), 'share root\n');
    writeFileSync(path.join(folder, 'photos', '2026', 'a.jpg'), 'jpeg\n');
    writeFileSync(path.join(folder, 'private', 'secret.txt'), 'secret\n');
    writeFileSync(path.join(folder, 'greetings', 'hello.txt'), 'hello\n');
    box = await startTestDaemon({}, { apps: { accounts: true }, fileServices: { deployment } });
    admin = await box.signIn();
    // The administrator reads and writes every share, so the share ACL names it: it needs an account.
    const adminUid = (
      (await box.daemon.db.query("SELECT uid FROM users WHERE username = 'admin'", { type: QueryTypes.SELECT, plain: true })) as { uid: number }
    ).uid;
    if (run('getent', ['passwd', 'admin']).status !== 0) {
      expect(run('useradd', ['--uid', String(adminUid), '--gid', 'users', '--no-create-home', '--shell', '/usr/sbin/nologin', 'admin']).status).to.equal(0);
      madeAdmin = true;
    }
    await box.daemon.db.query("INSERT INTO app_accounts (app_id, uid, dataset) VALUES ('org.example.placeholder', ?, NULL)", { replacements: [uid - 1] });
    shareId = (await admin.api.shares.create({ body: { name: 'media', hostPath: folder } })).id;
    await installApp(admin, storageApp('1.0.0', { backend: null }));
    expect((await admin.api.apps.list()).apps.find((a) => a.id === appId)?.uid).to.equal(uid);
    await admin.api.apps.mapStorage({ params: { appId, storageId: 'greetings' }, body: { shareId, path: 'greetings', access: 'readWrite' } });
    await admin.api.apps.mapStorage({ params: { appId, storageId: 'photos' }, body: { shareId, path: 'photos/2026', access: 'read' } });
  });

  after(async () => {
    await box?.close();
    run('userdel', [account]);
    run('groupdel', [account]);
    if (madeAdmin) run('userdel', ['admin']);
    rmSync(root, { recursive: true, force: true });
  });

  it('lets the app’s account read its read mapping and write its read-write one, and nothing else of the share', async () => {
    // Passages come last in a pass: once the share's own folder has its entry, the pass is through.
    for (const rel of ['greetings', 'photos/2026', 'photos', '']) await aclSettles(rel, true);
    expect(canRead('greetings/hello.txt')).to.equal(true);
    expect(canWrite('greetings/new.txt')).to.equal(true);
    // What it made there inherits the folder's entries: the share's users keep their access to it.
    expect(run('getfacl', ['-p', '-c', path.join(folder, 'greetings', 'new.txt')]).stdout).to.match(/^user:admin:rw/m);
    expect(canRead('photos/2026/a.jpg')).to.equal(true);
    expect(asApp('ls', path.join(folder, 'photos', '2026')).status).to.equal(0);
    expect(canWrite('photos/2026/b.jpg')).to.equal(false);
    expect(canWrite('photos/2026/a.jpg')).to.equal(false);
    // Passing through the folders above is all it may do there.
    expect(asApp('ls', folder).status).to.not.equal(0);
    expect(asApp('ls', path.join(folder, 'photos')).status).to.not.equal(0);
    expect(canRead('notes.txt')).to.equal(false);
    expect(canRead('private/secret.txt')).to.equal(false);
    expect(canWrite('private/mine.txt')).to.equal(false);
    expect(canWrite('photos/mine.txt')).to.equal(false);
  });

  it('runs the API for apps’ file calls as the app’s own account', async () => {
    const { token } = await admin.api.apps.issueToken({ params: { appId }, body: { kind: 'host', instanceId: 'window-acl-1' } });
    const call = (method: string, route: string, body?: string) =>
      fetch(`${box.url}/api/app/storage${route}`, { method, headers: { Authorization: `Bearer ${token}`, 'X-Cellar-Instance': 'window-acl-1' }, body });
    const written = await call('PUT', '/greetings/content?path=by-api.txt', 'through the API\n');
    expect(written.status).to.equal(201);
    expect(statSync(path.join(folder, 'greetings', 'by-api.txt')).uid).to.equal(uid);
    expect(await (await call('GET', '/photos/content?path=a.jpg')).text()).to.equal('jpeg\n');
    // The disk is the second wall: with the entry taken away by hand, the app's account is refused.
    run('setfacl', ['-x', `u:${account}`, path.join(folder, 'greetings', 'hello.txt')]);
    const refused = await call('GET', '/greetings/content?path=hello.txt');
    expect([refused.status, ((await refused.json()) as { code: string }).code]).to.deep.equal([403, 'fs.entry.forbidden']);
  });

  it('keeps the entries through a fresh share-wide pass (a daemon restart applies everything again)', async () => {
    const dataDir = box.dataDir;
    await box.close({ keepData: true });
    // Taken away by hand: only the file services' own pass can give it back.
    run('setfacl', ['-R', '-x', `u:${account}`, path.join(folder, 'greetings')]);
    expect(canRead('greetings/hello.txt')).to.equal(false);
    box = await startTestDaemon({ dataDir }, { apps: { accounts: true }, fileServices: { deployment } });
    admin = await box.signIn();
    for (const rel of ['greetings', '']) await aclSettles(rel, true);
    expect(canRead('greetings/hello.txt')).to.equal(true);
    expect(canWrite('greetings/again.txt')).to.equal(true);
  });

  it('takes every entry away while the app is off or lacks the files permission, and gives it back', async () => {
    await admin.api.apps.update({ params: { appId }, body: { enabled: false } });
    await aclSettles('greetings', false);
    await aclSettles('photos/2026', false);
    expect(canRead('greetings/hello.txt')).to.equal(false);
    expect(canRead('photos/2026/a.jpg')).to.equal(false);
    await admin.api.apps.update({ params: { appId }, body: { enabled: true } });
    for (const rel of ['greetings', '']) await aclSettles(rel, true);
    expect(canRead('greetings/hello.txt')).to.equal(true);
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: false } } });
    await aclSettles('greetings', false);
    expect(canRead('greetings/hello.txt')).to.equal(false);
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: true } } });
    await aclSettles('greetings', true);
  });

  it('removes the entries on unmap, on the folder, below it and above it, and leaves the files', async () => {
    await admin.api.apps.unmapStorage({ params: { appId, storageId: 'greetings' } });
    await admin.api.apps.unmapStorage({ params: { appId, storageId: 'photos' } });
    for (const rel of ['greetings', 'greetings/hello.txt', 'greetings/new.txt', 'photos/2026', 'photos', '']) await aclSettles(rel, false);
    expect(canRead('greetings/hello.txt')).to.equal(false);
    expect(run('cat', [path.join(folder, 'greetings', 'new.txt')]).stdout).to.equal('app\n');
  });
});

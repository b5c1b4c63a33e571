import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { initSessionModel } from '../../daemon/src/areas/identity/auth/session.model.ts';
import { SqliteSessionStore } from '../../daemon/src/areas/identity/auth/session-store.ts';
import { createIdentityArea } from '../../daemon/src/areas/identity/identity.area.ts';
import { initUserModel } from '../../daemon/src/areas/identity/users/user.model.ts';
import { createLogger } from '../../daemon/src/core/logger.ts';
import type { Principal } from '../../daemon/src/core/principal.ts';
import { ProblemError } from '../../daemon/src/core/problem-error.ts';
import { TopicsHub } from '../../daemon/src/core/topics/topics-hub.ts';
import { openDatabase } from '../../daemon/src/db/database.ts';
import { migrate } from '../../daemon/src/db/migrate.ts';

/**
 * Real system accounts as root: the identity services with the accounts adapter applying its
 * commands (useradd, chpasswd, smbpasswd, ...), checked with getent, pdbedit and a real PAM
 * password check (pamtester). Only names under a random `ctest` prefix are made, and all of
 * them are removed afterwards, also when a test fails. The daemon itself is not started in box
 * mode: nothing but the accounts adapter touches the machine.
 */
describe('system accounts (root, real useradd, PAM and Samba passdb)', function () {
  this.timeout(60_000);
  const prefix = `ctest${randomBytes(3).toString('hex')}`;
  const name = (suffix: string) => `${prefix}${suffix}`;
  let dir: string;
  let smbConf: string;
  let db: Sequelize;
  let identity: Awaited<ReturnType<typeof createIdentityArea>>;
  const actor: Principal = {
    id: -1,
    username: 'test-admin',
    displayName: '',
    language: 'en',
    totpEnabled: false,
    admin: true,
    rights: new Set(),
    sessionId: 'test',
  };

  const run = (cmd: string, args: string[], input?: string) => spawnSync(cmd, args, { input, encoding: 'utf8', timeout: 20_000 });
  const getent = (db: 'passwd' | 'group' | 'shadow', key: string) => run('getent', [db, key]);
  const pamOk = (user: string, password: string) => run('pamtester', ['login', user, 'authenticate', 'acct_mgmt'], `${password}\n`).status === 0;
  const smbFlags = (user: string) => /Account Flags:\s*\[([A-Z ]+)\]/.exec(run('pdbedit', ['-s', smbConf, '-v', user]).stdout)?.[1] ?? null;

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    for (const tool of ['useradd', 'gpasswd', 'smbpasswd', 'pdbedit', 'pamtester']) expect(run('which', [tool]).status, `${tool} is installed`).to.equal(0);
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-accounts-'));
    for (const sub of ['private', 'lock', 'state', 'cache', 'pid']) mkdirSync(path.join(dir, sub));
    smbConf = path.join(dir, 'smb.conf');
    writeFileSync(
      smbConf,
      `[global]\n  passdb backend = tdbsam:${dir}/passdb.tdb\n  private dir = ${dir}/private\n  lock directory = ${dir}/lock\n  state directory = ${dir}/state\n  cache directory = ${dir}/cache\n  pid directory = ${dir}/pid\n  disable netbios = yes\n`,
    );
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    db = await openDatabase(path.join(dir, 'cellar.sqlite'), logger);
    await migrate(db, logger);
    const userRows = initUserModel(db);
    const sessionStore = new SqliteSessionStore(initSessionModel(db), 60_000);
    const topics = new TopicsHub({ logger, sessionAlive: async () => true });
    // Start high in the ranges, away from accounts other tests on this machine may make.
    const base = 29000 + Math.floor(Math.random() * 900);
    await db.query("UPDATE account_ids SET last = ? WHERE kind = 'uid'", { replacements: [base] });
    await db.query("UPDATE account_ids SET last = ? WHERE kind = 'gid'", { replacements: [base + 10000] });
    identity = await createIdentityArea({
      db,
      logger,
      userRows,
      sessionStore,
      topics,
      dataDir: dir,
      applyAccounts: true,
      smbConf,
      initialAdmin: null,
    });
    await identity.start();
  });

  after(async () => {
    // Every account and group of this run, whatever state a failed test left.
    for (const line of run('getent', ['passwd'])
      .stdout.split('\n')
      .filter((l) => l.startsWith(prefix))) {
      const user = line.split(':')[0]!;
      run('smbpasswd', ['-c', smbConf, '-x', user]);
      run('userdel', [user]);
    }
    for (const line of run('getent', ['group'])
      .stdout.split('\n')
      .filter((l) => l.startsWith(prefix)))
      run('groupdel', [line.split(':')[0]!]);
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a real account: uid, primary group users, no login shell, same password for PAM and SMB', async () => {
    const boss = await identity.users.create({ username: name('boss'), password: 'walnut-grove-31', admin: true });
    const user = await identity.users.create({ username: name('anna'), displayName: 'Anna: A, B', password: 'walnut-grove-32', smb: true });
    const entry = getent('passwd', user.username).stdout.trim().split(':');
    expect(entry[2]).to.equal(String(user.uid));
    expect(entry[3]).to.equal('100');
    expect(entry[4]).to.equal('Anna  A  B');
    expect(entry[6]).to.equal('/usr/sbin/nologin');
    expect(pamOk(user.username, 'walnut-grove-32')).to.equal(true);
    expect(pamOk(user.username, 'wrong-password')).to.equal(false);
    expect(smbFlags(user.username)).to.match(/^U\s*$/);
    expect(getent('group', 'cellar-smb').stdout.trim().split(':')[3]!.split(',')).to.include(user.username).and.not.include(boss.username);
  });

  it('deactivation expires the account and disables SMB; activation undoes both', async () => {
    const user = (await identity.users.list()).find((u) => u.username === name('anna'))!;
    await identity.users.update(actor, user.id, { active: false });
    expect(getent('shadow', user.username).stdout.split(':')[7]).to.equal('1');
    expect(pamOk(user.username, 'walnut-grove-32')).to.equal(false);
    expect(smbFlags(user.username)).to.include('D');
    expect(getent('group', 'cellar-smb').stdout.trim().split(':')[3] ?? '').to.not.include(user.username);
    await identity.users.update(actor, user.id, { active: true, sftp: true });
    expect(pamOk(user.username, 'walnut-grove-32')).to.equal(true);
    expect(smbFlags(user.username)).to.not.include('D');
    expect(getent('group', 'cellar-sftp').stdout).to.include(user.username);
  });

  it('a password reset changes the PAM and SMB password', async () => {
    const user = (await identity.users.list()).find((u) => u.username === name('anna'))!;
    await identity.users.setPassword(user.id, 'chestnut-lane-44');
    expect(pamOk(user.username, 'chestnut-lane-44')).to.equal(true);
    expect(pamOk(user.username, 'walnut-grove-32')).to.equal(false);
  });

  it('groups are system groups with members; rename keeps the gid; delete removes them', async () => {
    const user = (await identity.users.list()).find((u) => u.username === name('anna'))!;
    const group = await identity.groups.create({ name: name('team'), memberIds: [user.id] });
    expect(getent('group', group.name).stdout.trim()).to.equal(`${group.name}:x:${group.gid}:${user.username}`);
    const renamed = await identity.groups.update(group.id, { name: name('crew'), memberIds: [] });
    expect(getent('group', group.name).status).to.not.equal(0);
    expect(getent('group', renamed.name).stdout.trim()).to.equal(`${renamed.name}:x:${group.gid}:`);
    await identity.groups.remove(group.id);
    expect(getent('group', renamed.name).status).to.not.equal(0);
  });

  it('a failed host command rolls the database change back and names the command', async () => {
    const [{ last }] = (await db.query("SELECT last FROM account_ids WHERE kind = 'gid'", { plain: false, raw: true }))[0] as [{ last: number }];
    // Someone else on the host holds the next gid: groupadd --gid fails.
    const blocker = name('block');
    expect(run('groupadd', ['--gid', String(last + 1), blocker]).status).to.equal(0);
    const groupName = name('fail');
    try {
      await identity.groups.create({ name: groupName });
      expect.fail('the create should have failed');
    } catch (err) {
      expect(err).to.be.instanceOf(ProblemError);
      expect((err as ProblemError).code).to.equal('users.account.host_failed');
      expect((err as ProblemError).params?.command).to.equal(`groupadd --gid ${last + 1} ${groupName}`);
    }
    expect((await identity.groups.list()).some((g) => g.name === groupName)).to.equal(false);
    const [{ after }] = (await db.query("SELECT last AS after FROM account_ids WHERE kind = 'gid'", { raw: true }))[0] as [{ after: number }];
    expect(after).to.equal(last);
  });

  it('deleting a user removes the system and SMB accounts', async () => {
    const user = (await identity.users.list()).find((u) => u.username === name('anna'))!;
    await identity.users.remove(actor, user.id, { home: 'keep' });
    expect(getent('passwd', user.username).status).to.not.equal(0);
    expect(smbFlags(user.username)).to.equal(null);
  });
});

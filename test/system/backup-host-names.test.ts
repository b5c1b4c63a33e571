import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Row } from '../../daemon/src/areas/backup-rows.ts';
import { readBackup, writeBackup, type BackupContent } from '../../shared/src/backup/backup-file.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

const backupPassword = 'a long backup passphrase';

/**
 * Issue 27 point 3 on real accounts (root): a backup's user or group may not take a name a host
 * account or group holds outside the box's ranges (on a box `sshd`, `sudo`, `docker`...), though
 * the name is on no list; one held inside the range is the box's own and is taken over. The names
 * are made under a random `cbh` prefix and go afterwards; the daemon only reads them (getent).
 */
describe('backup inspect refuses names of system accounts on the host (root: useradd --system)', function () {
  this.timeout(60_000);
  const prefix = `cbh${randomBytes(3).toString('hex')}`;
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  let box: TestDaemon;
  let admin: TestClient;
  let real: BackupContent;

  const inspect = async (change: (parts: { users: { users: Row[] }; groups: { groups: Row[] } }) => void) => {
    const parts = structuredClone(real.parts) as unknown as { users: { users: Row[]; host: { username: string }[] }; groups: { groups: Row[] } };
    change(parts);
    // The host's password entry follows its user's name.
    for (const h of parts.users.host) if (h.username === 'carol') h.username = String(parts.users.users.find((u) => u.uid === 29001)?.username);
    const file = await writeBackup({ ...real, parts: parts as unknown as BackupContent['parts'] }, backupPassword);
    return admin.api.backup.inspect({ body: { password: backupPassword, backup: file.toString('base64') } });
  };

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    expect(run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', `${prefix}svc`]).status).to.equal(0);
    expect(run('groupadd', ['--system', `${prefix}adm`]).status).to.equal(0);
    expect(run('groupadd', ['--gid', '39990', `${prefix}own`]).status).to.equal(0);
    // The daemon reads the host's accounts, and the restore is never run: nothing of the host changes.
    box = await startTestDaemon({}, { restart: () => undefined, backup: { applyHost: true, sshDir: null } });
    admin = await box.signIn();
    await box.daemon.db.query(
      "INSERT INTO users (username, display_name, password_hash, admin, active, language, uid, created_at, updated_at) VALUES ('carol', '', 'x', 0, 1, 'en', 29001, '', '')",
    );
    await box.daemon.db.query("INSERT INTO groups (name, gid, description, built_in, created_at, updated_at) VALUES ('team', 39001, '', 0, '', '')");
    const file = Buffer.from(await (await admin.api.backup.create({ body: { password: backupPassword } })).arrayBuffer());
    real = await readBackup(file, backupPassword);
  });
  after(async () => {
    run('userdel', [`${prefix}svc`]);
    run('groupdel', [`${prefix}adm`]);
    run('groupdel', [`${prefix}own`]);
    await box?.close();
  });

  it('refuses a user named as a system account and a group named as a system group, on no list of names', async () => {
    let err = await expectProblem(
      inspect((p) => Object.assign(p.users.users.find((u) => u.username === 'carol') as Row, { username: `${prefix}svc` })),
      'backup.account.reserved',
      400,
    );
    expect(err.problem.params).to.deep.equal({ kind: 'user', name: `${prefix}svc` });
    err = await expectProblem(
      inspect((p) => Object.assign(p.groups.groups.find((g) => g.name === 'team') as Row, { name: `${prefix}adm` })),
      'backup.account.reserved',
      400,
    );
    expect(err.problem.params).to.deep.equal({ kind: 'group', name: `${prefix}adm` });
  });

  it("accepts a group the host holds inside the box's range: the box's own, which a restore takes over", async () => {
    const summary = await inspect((p) => Object.assign(p.groups.groups.find((g) => g.name === 'team') as Row, { name: `${prefix}own`, gid: 39990 }));
    expect(summary.parts.find((p) => p.name === 'groups')?.restorable).to.equal(true);
  });
});

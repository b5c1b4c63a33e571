import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

/**
 * A backup written before the areas carried their own parts (the backup area built users, groups,
 * permissions, shares and ssh itself, session 13): a development box with bob (SMB, SFTP), the
 * group family {bob} granted SFTP, the share Photos at /tmp/cellar-backup-fixture-photos with
 * family read and bob read-write, and one ed25519 SSH host key. Moving the parts into their
 * areas kept the format: the file still inspects and restores, part by part, as it did.
 */
const fixture = path.join(import.meta.dirname, '../fixtures/backup/parts-built-by-the-backup-area.cellarbackup');
const password = 'a long backup passphrase';

describe('configuration backup: a file written by the earlier collector restores unchanged', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let admin: TestClient;
  const sshDir = mkdtempSync(path.join(tmpdir(), 'cellar-old-backup-ssh-'));

  before(async () => {
    box = await startTestDaemon({}, { restart: () => undefined, backup: { sshDir } });
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    rmSync(sshDir, { recursive: true, force: true });
  });

  it("inspects every part the areas' contracts carry now, and restores users, groups, permissions, shares and ssh", async () => {
    const summary = await admin.api.backup.inspect({ body: { password, backup: readFileSync(fixture).toString('base64') } });
    const counts = Object.fromEntries(summary.parts.map((p) => [p.name, p.counts]));
    expect(summary.parts.every((p) => p.restorable)).to.equal(true);
    expect(counts.users).to.deep.include({ users: 2, administrators: 1 });
    expect(counts.groups).to.deep.include({ groups: 1, memberships: 1 });
    expect(counts.shares).to.deep.include({ shares: 1, shareGrants: 2 });
    expect(counts.ssh).to.deep.equal({ hostKeys: 1 });
    // The share's folder belonged to the box that wrote the file.
    expect(summary.sharesWithoutDataset.map((s) => s.name)).to.deep.equal(['Photos']);
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['ssh', 'shares', 'permissions', 'groups', 'users'] } });
    // In the format's order whatever the order asked: users before what points at them.
    expect(result.restored).to.deep.equal(['users', 'groups', 'permissions', 'shares', 'ssh']);
    expect(result.hostFailed).to.deep.equal([]);
    expect(result.skipped).to.deep.equal([]);
    // No network part in the file: nothing awaits confirmation.
    expect(summary.parts.map((p) => p.name)).to.not.include('network');
    expect(result.networkChange).to.equal(null);

    admin = await box.signIn();
    expect((await admin.api.systemNetwork.network()).pending).to.equal(null);
    const bob = (await admin.api.users.list()).find((u) => u.username === 'bob');
    expect(bob).to.deep.include({ smb: true, sftp: true });
    await box.signIn('bob', 'bob password 1');
    const family = (await admin.api.groups.list()).find((g) => g.name === 'family');
    expect(family?.members.map((m) => m.id)).to.deep.equal([bob!.id]);
    expect((await admin.api.permissions.groupGrants({ params: { groupId: family!.id } })).rights).to.deep.equal(['sftp']);
    const photos = (await admin.api.shares.list()).find((s) => s.name === 'Photos');
    expect(photos?.hostPath).to.equal('/tmp/cellar-backup-fixture-photos');
    const grants = await admin.api.shares.grants({ params: { shareId: photos!.id } });
    expect(grants.grants).to.have.deep.members([
      { subjectType: 'group', subjectId: family!.id, level: 'read' },
      { subjectType: 'user', subjectId: bob!.id, level: 'readWrite' },
    ]);
    expect(readFileSync(path.join(sshDir, 'ssh_host_ed25519_key'), 'utf8')).to.match(/^-----BEGIN OPENSSH PRIVATE KEY-----\n/);
    expect(readFileSync(path.join(sshDir, 'ssh_host_ed25519_key.pub'), 'utf8')).to.match(/^ssh-ed25519 /);
  });
});

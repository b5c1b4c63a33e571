import { expect } from 'chai';
import { startTestDaemon, type TestDaemon } from '../../../test/helpers/daemon.ts';
import { readBackupView } from './backup-reader.ts';
import { ConsoleError } from './console-error.ts';

describe('console backup reader (a real backup from a daemon)', function () {
  this.timeout(60_000);
  const password = 'a long backup passphrase';
  let box: TestDaemon;
  let file: Buffer;

  before(async () => {
    box = await startTestDaemon();
    const admin = await box.signIn();
    await admin.api.users.create({ body: { username: 'bob', password: 'bob password 1', smb: true } });
    await admin.api.groups.create({ body: { name: 'family', description: 'The family' } });
    const response = await admin.request('POST', '/api/system/backup', { body: { password } });
    expect(response.status).to.equal(200);
    file = Buffer.from(await response.arrayBuffer());
  });
  after(() => box.close());

  it('shows the summary and every part read-only, without secret columns', async () => {
    const view = await readBackupView(file, password);
    expect(view.box.version).to.equal('0.1.0');
    expect(Date.parse(view.createdAt)).to.be.closeTo(Date.now(), 60_000);
    expect(view.parts.map((p) => p.name)).to.include.members(['users', 'groups', 'shares', 'storage', 'region']);
    const users = view.parts.find((p) => p.name === 'users')!;
    expect(users.counts.users).to.equal(2);
    const table = users.tables.find((t) => t.name === 'users')!;
    expect(table.columns).to.include('username').and.not.include('password_hash');
    expect(table.rows.map((r) => r[table.columns.indexOf('username')])).to.have.members(['admin', 'bob']);
    const groups = view.parts.find((p) => p.name === 'groups')!.tables.find((t) => t.name === 'groups')!;
    expect(groups.rows.map((r) => r[groups.columns.indexOf('name')])).to.include('family');
    expect(view.parts.find((p) => p.name === 'region')!.tables[0]!.columns).to.include('language');
    expect(JSON.stringify(view)).not.to.match(/\$2[aby]\$/);
  });

  it('answers the format codes for a wrong password and a damaged file, and refuses an empty password', async () => {
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => 'none',
        (err: unknown) => (err instanceof ConsoleError ? err.code : String(err)),
      );
    expect(await code(readBackupView(file, 'not the passphrase'))).to.equal('backup.password.wrong');
    const damaged = Buffer.from(file);
    damaged[damaged.length - 40]! ^= 0xff;
    expect(await code(readBackupView(damaged, password))).to.equal('backup.file.damaged');
    expect(await code(readBackupView(Buffer.from('hello'), password))).to.match(/^backup\.file\./);
    expect(await code(readBackupView(file, ''))).to.equal('console.backup.password_missing');
  });
});

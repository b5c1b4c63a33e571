import { expect } from 'chai';
import { adminCaller, startDaemonProcess, type DaemonProcess } from '../helpers/daemon-process.ts';

const password = 'a long backup passphrase';

/** The restart after a restore, in the real entry point (main.ts): the daemon is built again in the same process. */
describe('backup restore restarts the daemon process (development mode)', function () {
  this.timeout(120_000);
  let daemon: DaemonProcess;

  before(async () => {
    daemon = await startDaemonProcess();
  });
  after(() => daemon.close());

  it('answers the restore, rebuilds itself from the restored settings, and forgets what it kept in memory', async () => {
    const call = await adminCaller(daemon.base);
    expect((await call('PUT', '/api/system/region', { language: 'de', region: 'AT' })).status).to.equal(200);
    const file = Buffer.from(await (await call('POST', '/api/system/backup', { password })).arrayBuffer());
    expect((await call('PUT', '/api/system/region', { language: 'en', region: null })).status).to.equal(200);
    const inspect = async () =>
      ((await (await call('POST', '/api/system/backup/inspect', { password, backup: file.toString('base64') })).json()) as { backupId: string }).backupId;
    const first = await inspect();
    const second = await inspect();

    const restored = await call('POST', '/api/system/backup/restore', { backupId: first, parts: ['region'] });
    expect(restored.status).to.equal(200);
    expect(await restored.json()).to.include({ signedOut: false, restarting: true });

    // The rebuilt daemon answers again, with the restored region, and the session (in SQLite) still holds.
    let answer: Response | null = null;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      answer = await call('POST', '/api/system/backup/restore', { backupId: second, parts: ['region'] }).catch(() => null);
      if (answer) break;
    }
    // The second inspected backup lived in the old daemon's memory only: the rebuild forgot it.
    expect(answer?.status, daemon.stderr()).to.equal(404);
    expect(((await answer?.json()) as { code: string }).code).to.equal('backup.inspected.not_found');
    expect(await (await call('GET', '/api/system/region')).json()).to.deep.equal({ language: 'de', region: 'AT' });
    expect(daemon.stderr()).to.not.match(/could not restart/);
  });
});

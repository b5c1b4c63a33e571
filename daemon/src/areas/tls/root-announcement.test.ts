import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminPassword, startTestDaemon, type TestDaemon } from '../../../../test/helpers/daemon.ts';
import { httpsClient } from '../../../../test/helpers/https-client.ts';
import { TlsStore } from './tls-store.ts';

describe("tls: the root's fingerprint on the box's own screen and in the journal at start", function () {
  this.timeout(60_000);
  let dir: string;
  let box: TestDaemon | null = null;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'cellar-root-screen-'))));
  after(async () => {
    await box?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the fingerprint of the root the box holds to its screen and logs it', async () => {
    const screen = path.join(dir, 'console');
    box = await startTestDaemon({ https: true }, { tls: { screen } });
    // What the box holds, read from its data directory, not from what the network shows.
    const rootPem = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!.rootPem;
    const fingerprint = new X509Certificate(rootPem).fingerprint256;
    expect(readFileSync(screen, 'utf8')).to.equal(`Cellar: the fingerprint (SHA-256) of this box's root certificate is\r\n  ${fingerprint}\r\n`);
    const admin = httpsClient(box.url, rootPem);
    try {
      await admin.signIn('admin', adminPassword);
      const logged = await admin.send('GET', `/api/logs?search=${encodeURIComponent('root certificate fingerprint')}`);
      const entries = (JSON.parse(logged.body) as { items: { fields: Record<string, unknown> }[] }).items;
      expect(entries.map((e) => e.fields)).to.deep.include.members([{ component: 'tls', rootFingerprint: fingerprint }]);
    } finally {
      admin.close();
    }
  });
});

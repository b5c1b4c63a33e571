import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { InstallerStatus } from '../../shared/src/api/installer/installer.ts';
import type { InstallerCall } from '../../console/src/bridge.ts';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleError } from '../../console/src/node/console-error.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * The console's side of the encrypted claim, through its own service code against real
 * installer-mode daemons: the key the claim's connection presented is shown, pinned only when the
 * owner confirms that fingerprint, nothing claimed goes out before, and a medium that comes back
 * with another key at the same address is refused.
 */
describe('e2e: console pins the installation medium key the owner confirmed', function () {
  this.timeout(120_000);
  let dir: string;
  let image: string;
  let box: TestDaemon | undefined;
  let service: ConsoleService;
  let port: number;

  const start = (p: number) =>
    startTestDaemon(
      { mode: 'installer', installerImage: image, port: p },
      { installer: { apply: false, reboot: false, mdns: false, screenFile: path.join(dir, `screen-${p}`) } },
    );
  const call = (operation: InstallerCall['operation'], body?: unknown) =>
    service.installer({ boxId: 'mdns:medium', operation, ...(body === undefined ? {} : { body }) });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => (err instanceof ConsoleError ? err.code : String(err)),
    );

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-medium-key-'));
    image = path.join(dir, 'system.tar');
    writeFileSync(image, '');
    box = await start(0);
    port = Number(new URL(box.url).port);
    const store = new BoxStore(path.join(dir, 'boxes.json'));
    const announcement = {
      key: 'medium',
      name: 'medium',
      host: 'medium.local',
      port,
      addresses: ['127.0.0.1'],
      mode: 'installer' as const,
      installId: null,
      version: null,
      scheme: 'https' as const,
    };
    const discovery = new Discovery({ browser: { start: (up) => (up(announcement), () => {}) }, known: () => store.list() });
    discovery.start();
    service = new ConsoleService({ store, discovery });
  });
  after(async () => {
    await box?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows the key the claim's connection presented, and sends nothing claimed before the owner confirmed it", async () => {
    const claimed = (await call('claim')) as InstallerStatus;
    const own = await box!.client().api.installer.status();
    expect(claimed.fingerprint).to.deep.equal(own.fingerprint);
    expect(claimed).to.not.have.property('claimSecret');
    expect(claimed.claimCode).to.match(/^\d{6}$/);
    expect(await refusal(call('options'))).to.equal('console.installer.not_confirmed');
    // A fingerprint other than the one shown pins nothing.
    expect(await refusal(call('confirmKey', { fingerprint: 'ab'.repeat(32) }))).to.equal('console.installer.key_changed');
    expect(await refusal(call('options'))).to.equal('console.installer.not_confirmed');
    expect(await call('confirmKey', { fingerprint: claimed.fingerprint.sha256 })).to.deep.equal({ fingerprint: claimed.fingerprint.sha256 });
    const options = (await call('options')) as { languages: string[] };
    expect(options.languages).to.deep.equal(['en', 'de']);
  });

  it('refuses the medium at the same address once it presents another key', async () => {
    await box!.close();
    box = undefined;
    box = await start(port);
    const fresh = await box.client().api.installer.status();
    expect(fresh.state).to.equal('waiting');
    for (const operation of ['status', 'claim', 'options'] as const)
      expect(await refusal(call(operation)), operation).to.equal('console.installer.key_changed');
    // The new medium is still waiting: nothing of the console reached it.
    expect((await box.client().api.installer.status()).state).to.equal('waiting');
  });
});

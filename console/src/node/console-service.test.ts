import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type DetailedPeerCertificate } from 'node:tls';
import { createAuthority } from '../../../daemon/src/areas/tls/authority.ts';
import { TlsStore } from '../../../daemon/src/areas/tls/tls-store.ts';
import { errorCatalog } from '../../../shared/src/errors/index.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../../../test/helpers/daemon.ts';
import { httpsClient } from '../../../test/helpers/https-client.ts';
import { BoxStore } from './box-store.ts';
import { ConsoleError } from './console-error.ts';
import { ConsoleService } from './console-service.ts';
import { Discovery } from './discovery.ts';

/** The chain a fresh connection to the box is shown, leaf first, in PEM: what Electron hands the verifier. */
function presentedChain(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const chain: string[] = [];
      for (let c: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true); c?.raw && chain.length < 8; c = c.issuerCertificate) {
        chain.push(new X509Certificate(c.raw).toString());
        if (c.issuerCertificate === c) break;
      }
      socket.end();
      resolve(chain);
    });
    socket.on('error', reject);
  });
}

describe('console service: trust and the pin against a real daemon over HTTPS', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let dir: string;
  let service: ConsoleService;
  let store: BoxStore;
  let port: number;

  before(async () => {
    box = await startTestDaemon({ https: true });
    port = Number(new URL(box.url).port);
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-service-'));
    store = new BoxStore(path.join(dir, 'boxes.json'));
    // No mDNS in this test: the box is added by address (discovery over mDNS: test/system/console-discovery.test.ts).
    service = new ConsoleService({ store, discovery: new Discovery({ browser: { start: () => () => {} }, known: () => store.list() }) });
  });
  after(async () => {
    await box.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pins the compared root, accepts the box chain for its name, refuses other names, and warns on a changed root', async () => {
    const listed = await service.addBox(box.url);
    const offer = await service.offerRoot(listed.id);
    // What the box holds, read from its data directory, not from what the connection shows.
    const rootPem = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!.rootPem;
    expect(offer.fingerprint).to.equal(new X509Certificate(rootPem).fingerprint256);
    expect(offer.pinnedBefore).to.equal(null);
    expect(service.verifyCertificate(listed.id, '127.0.0.1', await presentedChain(port))).to.deep.equal({ accept: false, reason: 'notPinned' });
    expect(() => service.boxForWindow(listed.id))
      .to.throw(ConsoleError)
      .with.property('code', 'console.box.untrusted');
    expect((await service.trustBox(listed.id, offer.fingerprint)).pinned).to.equal(offer.fingerprint);
    const chain = await presentedChain(port);
    expect(service.verifyCertificate(listed.id, '127.0.0.1', chain)).to.deep.equal({ accept: true });
    expect(service.verifyCertificate(listed.id, 'localhost', chain)).to.deep.equal({ accept: false, reason: 'nameOutside' });

    // The box gets a new authority: the pin refuses it, and the list carries the warning.
    const admin = httpsClient(box.url, rootPem);
    await admin.signIn('admin', adminPassword);
    expect((await admin.send('POST', '/api/system/tls/authority', {})).status).to.equal(200);
    admin.close();
    const changed = await presentedChain(port);
    expect(service.verifyCertificate(listed.id, '127.0.0.1', changed)).to.include({ accept: false, reason: 'otherRoot' });
    const warned = service.listBoxes().find((b) => b.id === listed.id)!;
    expect(warned.warning).to.include({ kind: 'rootChanged' });
    expect(() => service.boxForWindow(listed.id))
      .to.throw(ConsoleError)
      .with.property('code', 'console.box.untrusted');
    const again = await service.offerRoot(listed.id);
    expect(again.pinnedBefore).to.equal(offer.fingerprint);
    expect(again.fingerprint).not.to.equal(offer.fingerprint);
    // Trust is given to the fingerprint the user compared, never to whatever the box sends by then.
    const stale = await service.trustBox(listed.id, offer.fingerprint).catch((err: unknown) => err);
    expect(stale).to.be.instanceOf(ConsoleError).with.property('code', 'console.root.changed_meanwhile');
    expect((await service.trustBox(listed.id, again.fingerprint)).warning).to.equal(null);
    expect(service.verifyCertificate(listed.id, '127.0.0.1', changed)).to.deep.equal({ accept: true });
    expect(service.boxForWindow(listed.id).pin?.sha256).to.equal(again.fingerprint);
  });

  it('follows a trusted box to an announced address only with its install id and a chain that passes the pin there', async () => {
    const root = await service.offerRoot(service.listBoxes()[0]!.id);
    const other = new BoxStore(path.join(dir, 'follow.json'));
    const follower = new ConsoleService({ store: other, discovery: new Discovery({ browser: { start: () => () => {} }, known: () => other.list() }) });
    const announced = {
      key: 'k',
      name: 'box',
      host: 'box.local',
      port,
      addresses: ['127.0.0.1'],
      mode: 'installed' as const,
      version: null,
      scheme: 'https' as const,
    };
    const stale = other.add({ url: `https://127.0.0.2:${port}`, installId: 'box-id' });
    // Not trusted yet: nothing vouches for the new address.
    expect(await follower.follow({ ...announced, installId: 'box-id' })).to.equal(false);
    const rootPem = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!.rootPem;
    // Pinned to a root the box does not chain to: stays where it was.
    const foreign = await createAuthority({ now: Date.now(), hostname: 'other', localDomain: 'home.arpa' });
    other.pin(stale.id, { pem: foreign.rootPem, sha256: new X509Certificate(foreign.rootPem).fingerprint256 });
    expect(await follower.follow({ ...announced, installId: 'box-id' })).to.equal(false);
    other.pin(stale.id, { pem: rootPem, sha256: root.fingerprint });
    // Another install id: another box, whatever its address.
    expect(await follower.follow({ ...announced, installId: 'other-id' })).to.equal(false);
    expect(other.get(stale.id).url).to.equal(`https://127.0.0.2:${port}`);
    expect(await follower.follow({ ...announced, installId: 'box-id' })).to.equal(true);
    expect(other.get(stale.id).url).to.equal(`https://127.0.0.1:${port}`);
  });

  it('answers console.request.invalid to whatever a page sends that is not the right shape', async () => {
    const code = async (run: () => unknown) => {
      try {
        await run();
        return 'none';
      } catch (err) {
        return err instanceof ConsoleError ? err.code : String(err);
      }
    };
    const bad: unknown[] = [5, null, {}, ['x'], 'x'.repeat(5000)];
    for (const value of bad) {
      const any = value as never;
      expect(await code(() => service.addBox(any)), `addBox ${String(value)}`).to.equal('console.request.invalid');
      expect(await code(() => service.forgetBox(any, false)), `forgetBox ${String(value)}`).to.equal('console.request.invalid');
      expect(await code(() => service.removeTrust(any)), `removeTrust ${String(value)}`).to.equal('console.request.invalid');
      expect(await code(() => service.forgetBox(service.listBoxes()[0]!.id, any)), `forgetBox(id, ${String(value)})`).to.equal('console.request.invalid');
      expect(await code(() => service.offerRoot(any)), `offerRoot ${String(value)}`).to.equal('console.request.invalid');
      expect(await code(() => service.readBackup(any, 'pw')), `readBackup ${String(value)}`).to.equal('console.request.invalid');
      expect(
        await code(() => service.installer(value === null ? any : ({ boxId: value, operation: 'status' } as never))),
        `installer ${String(value)}`,
      ).to.equal('console.request.invalid');
    }
    expect(await code(() => service.offerRoot('no such box'))).to.equal('console.box.not_found');
  });

  it('refuses installer calls before a claim, without asking the box', async () => {
    const listed = service.listBoxes()[0]!;
    const err = await service.installer({ boxId: listed.id, operation: 'options' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ConsoleError).with.property('code', 'console.installer.not_claimed');
    const unknown = await service.installer({ boxId: listed.id, operation: 'format' as never }).catch((e: unknown) => e);
    expect(unknown).to.be.instanceOf(ConsoleError).with.property('code', 'console.installer.refused');
  });

  it("hands the page a box's refusal with its problem code, title and detail (a claim on a box not in installer mode)", async () => {
    const listed = service.listBoxes()[0]!;
    const err = await service.installer({ boxId: listed.id, operation: 'claim' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ConsoleError).with.property('code', 'console.installer.refused');
    expect((err as ConsoleError).params).to.deep.include({
      status: 409,
      code: 'installer.mode.inactive',
      title: errorCatalog['installer.mode.inactive'].title,
      detail: errorCatalog['installer.mode.inactive'].title,
    });
  });
});

import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { opensslVerify } from '../../../../test/helpers/openssl.ts';
import { createLogger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { createAuthority, type AuthorityMaterial } from './authority.ts';
import { boxLifetimeDays, renewBeforeDays, TlsService, type PresentedCertificate } from './tls.service.ts';
import { TlsStore } from './tls-store.ts';

const dayMs = 24 * 3600 * 1000;

describe('tls service: the box certificate', function () {
  this.timeout(60_000);
  let authority: AuthorityMaterial;
  let dir: string;
  let now: number;
  let presented: PresentedCertificate[];
  let service: TlsService;
  let store: TlsStore;

  before(async () => {
    authority = await createAuthority({ now: Date.now(), hostname: 'cellar', localDomain: 'local' });
  });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-tls-'));
    now = Date.now();
    presented = [];
    store = new TlsStore(path.join(dir, 'tls'), path.join(dir, 'tls-secret'));
    // The authority of the suite, so each test makes only the box's certificate.
    store.writeAuthority(authority);
    service = serviceOf(['127.0.0.1', '192.168.1.20', '8.8.8.8', 'fe80::1']);
  });

  /** The service over this test's store, as a daemon builds it at each start, on a box with these addresses. */
  const serviceOf = (addresses: string[]) =>
    new TlsService({
      store,
      clock: { now: () => now },
      logger: createLogger({ level: 'error', console: false, sinks: [] }),
      host: () => ({ hostname: 'cellar', addresses }),
      https: true,
      presentedChanged: (p) => presented.push(p),
    });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const boxCert = () => new X509Certificate(store.readBox()!.certificatePem);
  const verify = (at?: number, hostname?: string) =>
    opensslVerify({ root: authority.rootPem, intermediates: authority.intermediatePem, leaf: store.readBox()!.certificatePem, at, hostname });

  it("covers the box's own names inside the scope and leaves out the rest", async () => {
    const settings = await service.settings();
    expect(settings.names.automatic).to.have.members(['cellar', 'cellar.local', 'localhost', '127.0.0.1', '192.168.1.20']);
    expect(settings.box.names).to.have.members(settings.names.automatic);
    expect(settings.presented.source).to.equal('box');
    expect(verify(undefined, 'cellar.local').ok).to.equal(true);
  });

  it('reissues at once with the extra names, and openssl accepts the new one', async () => {
    await service.ready();
    const before = boxCert().serialNumber;
    const settings = await service.setNames(['nas.local', '10.0.0.5']);
    expect(settings.names.extra).to.deep.equal(['nas.local', '10.0.0.5']);
    expect(boxCert().serialNumber).to.not.equal(before);
    expect(settings.box.names).to.include.members(['nas.local', '10.0.0.5', 'cellar.local']);
    expect(verify(undefined, 'nas.local')).to.deep.include({ ok: true });
    expect(presented.at(-1)?.chainPem).to.contain(store.readBox()!.certificatePem.trim());
  });

  it('refuses a name outside the scope with a problem naming it, and changes nothing', async () => {
    await service.ready();
    const before = boxCert().serialNumber;
    try {
      await service.setNames(['nas.local', 'nas.example.com']);
      expect.fail('the name outside the scope was taken');
    } catch (err) {
      expect(err).to.be.instanceOf(ProblemError);
      expect((err as ProblemError).code).to.equal('tls.name.out_of_scope');
      expect((err as ProblemError).params).to.deep.equal({ name: 'nas.example.com' });
    }
    expect(boxCert().serialNumber).to.equal(before);
  });

  it('keeps the certificate across starts on a box with IPv6 addresses, whose names the certificate spells out in full', async () => {
    const addresses = ['127.0.0.1', '::1', 'fd00:0:0:0::20', 'FD00::21'];
    await serviceOf(addresses).ready();
    const first = boxCert();
    expect((await serviceOf(addresses).settings()).box.names).to.include.members(['0:0:0:0:0:0:0:1', 'FD00:0:0:0:0:0:0:20']);
    expect(boxCert().serialNumber, 'reissued at the second start').to.equal(first.serialNumber);
    // A new address is still a change of names.
    await serviceOf([...addresses, 'fd00::22']).ready();
    expect(boxCert().serialNumber).to.not.equal(first.serialNumber);
  });

  it('renews the certificate well before it ends, by the injected clock', async () => {
    await service.ready();
    const first = boxCert();
    expect(Date.parse(first.validTo) - now).to.be.closeTo(boxLifetimeDays * dayMs, dayMs);
    now += (boxLifetimeDays - renewBeforeDays - 2) * dayMs;
    await service.maintain();
    expect(boxCert().serialNumber, 'renewed too early').to.equal(first.serialNumber);
    now += 3 * dayMs;
    presented = [];
    await service.maintain();
    const renewed = boxCert();
    expect(renewed.serialNumber).to.not.equal(first.serialNumber);
    expect(presented).to.have.length(1);
    expect(Date.parse(renewed.validTo) - now).to.be.closeTo(boxLifetimeDays * dayMs, dayMs);
    expect(verify(now, 'cellar.local').ok).to.equal(true);
    // The old one would have ended long before the new one does.
    expect(opensslVerify({ root: authority.rootPem, intermediates: authority.intermediatePem, leaf: first.toString(), at: now + 100 * dayMs }).ok).to.equal(
      false,
    );
  });

  it('issues a device certificate sent while the authority is replaced from the authority that follows', async () => {
    await service.ready();
    const [settings, issued] = await Promise.all([service.createAuthority({}), service.devices.issue({ names: ['printer.local'] })]);
    const intermediate = new X509Certificate(store.readAuthority()!.intermediatePem);
    expect(settings.authority.intermediate.sha256Fingerprint).to.equal(intermediate.fingerprint256);
    expect(new X509Certificate(issued.certificate).verify(intermediate.publicKey)).to.equal(true);
    expect(issued.chain).to.equal(store.readAuthority()!.intermediatePem);
  });

  it('keeps every file in one folder, its keys encrypted at rest', async () => {
    await service.ready();
    const files = ['authority.json', 'box.json'].map((f) => readFileSync(path.join(dir, 'tls', f), 'utf8'));
    for (const text of files) {
      expect(text).to.not.contain('BEGIN PRIVATE KEY');
      expect(text).to.contain('BEGIN ENCRYPTED PRIVATE KEY');
    }
    expect(readdirSync(path.join(dir, 'tls')).sort()).to.deep.equal(['authority.json', 'box.json', 'issued']);
  });
});

describe('tls store: snapshot and restore (what a backup carries)', function () {
  this.timeout(60_000);

  it('moves the authority, certificates and settings to another data directory with its own key', async () => {
    const dirs = [mkdtempSync(path.join(tmpdir(), 'cellar-tls-a-')), mkdtempSync(path.join(tmpdir(), 'cellar-tls-b-'))];
    try {
      const [from, to] = dirs.map((d) => new TlsStore(path.join(d, 'tls'), path.join(d, 'tls-secret'))) as [TlsStore, TlsStore];
      const authority = await createAuthority({ now: Date.now(), hostname: 'cellar', localDomain: 'local' });
      from.writeAuthority(authority);
      from.writeSettings({ extraNames: ['nas.local'], nextIssuedId: 3 });
      from.writeIssued({ id: 2, createdAt: new Date().toISOString(), certificatePem: authority.intermediatePem });
      to.restore(from.snapshot());
      expect(to.snapshot()).to.deep.equal(from.snapshot());
      // Each data directory encrypts with its own key.
      expect(readFileSync(path.join(dirs[1]!, 'tls', 'authority.json'), 'utf8')).to.not.equal(
        readFileSync(path.join(dirs[0]!, 'tls', 'authority.json'), 'utf8'),
      );
    } finally {
      dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
    }
  });
});

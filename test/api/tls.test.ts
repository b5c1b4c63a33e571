import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { tlsMaintainTask } from '../../daemon/src/areas/tls/tls.area.ts';
import { outsideCertificates, type OutsideCertificates } from '../helpers/certificates.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { opensslVerify } from '../helpers/openssl.ts';
import { insertUser } from '../helpers/users.ts';

const dayMs = 24 * 3600 * 1000;

/** Every file below a folder, read as text. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesBelow(file) : [readFileSync(file, 'latin1')];
  });
}

describe('tls API: authority, box names, uploaded and issued certificates', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let now = Date.now();
  let outside: OutsideCertificates;

  before(async () => {
    outside = await outsideCertificates();
    box = await startTestDaemon({}, { clock: { now: () => now } });
    admin = await box.signIn();
    await insertUser(box, 'alice', 'alice password 1');
  });
  after(() => box.close());

  it('serves the root to anyone, before sign-in, with the fingerprint the sign-in page shows', async () => {
    // A development daemon over HTTP makes its authority only when first asked.
    expect((await box.client().api.system.setup()).rootCaFingerprint).to.equal(null);
    const response = await fetch(`${box.url}/api/system/tls/root-ca.crt`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/x-x509-ca-cert/);
    const root = new X509Certificate(await response.text());
    expect(root.ca).to.equal(true);
    const setup = await box.client().api.system.setup();
    expect(setup.rootCaFingerprint).to.equal(root.fingerprint256);
  });

  it('refuses the unauthenticated and the non-administrator on every other operation', async () => {
    await expectProblem(box.client().api.tls.settings(), 'auth.session.required', 401);
    const alice = await box.signIn('alice', 'alice password 1');
    await expectProblem(alice.api.tls.settings(), 'auth.permission.denied', 403);
    await expectProblem(alice.api.tls.issue({ body: { names: ['nas.local'] } }), 'auth.permission.denied', 403);
    await expectProblem(alice.api.tls.createAuthority({ body: {} }), 'auth.permission.denied', 403);
  });

  it('tells whether HTTPS is on, what is presented, the authority, its scope and the names', async () => {
    const settings = await admin.api.tls.settings();
    expect(settings.https).to.equal(false);
    expect(settings.presented.source).to.equal('box');
    expect(settings.presented.certificate.sha256Fingerprint).to.equal(settings.box.sha256Fingerprint);
    expect(settings.authority.localDomain).to.equal('local');
    expect(settings.authority.scope.dnsNames).to.include.members(['local', 'localhost']);
    expect(settings.authority.scope.ipRanges).to.include('192.168.0.0/16');
    expect(settings.names.automatic).to.include.members(['localhost', '127.0.0.1']);
    expect(settings.custom).to.equal(null);
    expect(settings.issued).to.deep.equal([]);
  });

  it('reissues the box certificate with extra names inside the scope, and names the first one outside', async () => {
    const before = await admin.api.tls.settings();
    const settings = await admin.api.tls.setNames({ body: { names: ['files.local', '192.168.7.7'] } });
    expect(settings.names.extra).to.deep.equal(['files.local', '192.168.7.7']);
    expect(settings.box.names).to.include.members(['files.local', '192.168.7.7', 'localhost']);
    expect(settings.box.serial).to.not.equal(before.box.serial);
    const problem = await expectProblem(admin.api.tls.setNames({ body: { names: ['files.local', 'www.example.com'] } }), 'tls.name.out_of_scope', 422);
    expect(problem.problem.params).to.deep.equal({ name: 'www.example.com' });
    await expectProblem(admin.api.tls.setNames({ body: { names: ['8.8.4.4'] } }), 'tls.name.out_of_scope', 422);
    await expectProblem(admin.api.tls.setNames({ body: { names: ['bad name!'] } }), 'request.body.invalid', 400);
    expect((await admin.api.tls.settings()).names.extra).to.deep.equal(['files.local', '192.168.7.7']);
  });

  it('issues a certificate for another device once with its key, keeps no key, lists and removes it', async () => {
    const root = await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text();
    const files = await admin.api.tls.issue({ body: { names: ['camera.local', '192.168.1.40'], lifetimeDays: 200 } });
    expect(files.privateKey).to.match(/BEGIN PRIVATE KEY/);
    expect(new X509Certificate(files.certificate).checkPrivateKey(await import('node:crypto').then((c) => c.createPrivateKey(files.privateKey)))).to.equal(
      true,
    );
    expect(opensslVerify({ root, intermediates: files.chain, leaf: files.certificate, hostname: 'camera.local' }).ok).to.equal(true);
    expect(files.info.names).to.deep.equal(['camera.local', '192.168.1.40']);
    const keyBody = files.privateKey.split('\n').slice(1, 3).join('');
    expect(filesBelow(box.dataDir).some((text) => text.includes(keyBody))).to.equal(false);

    const listed = (await admin.api.tls.settings()).issued;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ id: files.id, sha256Fingerprint: files.info.sha256Fingerprint });
    expect(JSON.stringify(listed)).to.not.contain('PRIVATE KEY');

    const pem = await admin.request('GET', `/api/system/tls/issued/${files.id}/certificate.pem`);
    expect(pem.headers.get('content-type')).to.match(/^application\/x-pem-file/);
    const text = await pem.text();
    expect(text).to.equal(files.certificate + files.chain);
    expect(text).to.not.contain('PRIVATE KEY');

    await expectProblem(admin.api.tls.issue({ body: { names: ['camera.example.org'] } }), 'tls.name.out_of_scope', 422);
    await expectProblem(admin.api.tls.issue({ body: { names: [] } }), 'request.body.invalid', 400);
    await expectProblem(admin.api.tls.issue({ body: { names: ['camera.local'], lifetimeDays: 400 } }), 'request.body.invalid', 400);

    expect((await admin.request('DELETE', `/api/system/tls/issued/${files.id}`)).status).to.equal(204);
    await expectProblem(admin.api.tls.removeIssued({ params: { id: files.id } }), 'tls.issued.not_found', 404);
    expect((await admin.request('GET', `/api/system/tls/issued/${files.id}/certificate.pem`)).status).to.equal(404);
    expect((await admin.api.tls.settings()).issued).to.deep.equal([]);
  });

  it('refuses an uploaded certificate for each rule it breaks', async () => {
    const good = await outside.server();
    const other = await outside.server();
    const [leaf = '', intermediate = '', root = ''] = good.chain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g) ?? [];
    const put = (certificate: string, privateKey: string) => admin.api.tls.setCustom({ body: { certificate, privateKey } });
    await expectProblem(put('not a certificate', good.privateKeyPem), 'tls.pem.invalid', 400);
    await expectProblem(put(good.chain, 'not a key'), 'tls.pem.invalid', 400);
    const encrypted = (await import('node:crypto'))
      .createPrivateKey(good.privateKeyPem)
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' })
      .toString();
    await expectProblem(put(good.chain, encrypted), 'tls.key.encrypted', 400);
    await expectProblem(put(good.chain, other.privateKeyPem), 'tls.key.mismatch', 422);
    const misordered = await expectProblem(put(leaf + root + intermediate, good.privateKeyPem), 'tls.chain.order', 422);
    expect(misordered.problem.params).to.include({ index: 0 });
    await expectProblem(put(leaf + intermediate, good.privateKeyPem), 'tls.chain.incomplete', 422);
    const expired = await outside.server({ fromDays: -60, toDays: -1 });
    await expectProblem(put(expired.chain, expired.privateKeyPem), 'tls.certificate.expired', 422);
    const early = await outside.server({ fromDays: 2, toDays: 30 });
    await expectProblem(put(early.chain, early.privateKeyPem), 'tls.certificate.not_yet_valid', 422);
    const nameless = await outside.withoutNames();
    await expectProblem(put(nameless.chain, nameless.privateKeyPem), 'tls.certificate.no_names', 422);
    expect((await admin.api.tls.settings()).custom).to.equal(null);
  });

  it('presents an uploaded certificate while it is valid, then the box its own again; DELETE removes it', async () => {
    const upload = await outside.server({ names: ['nas.local'], fromDays: -1, toDays: 3 });
    const settings = await admin.api.tls.setCustom({ body: { certificate: upload.chain, privateKey: upload.privateKeyPem } });
    const fingerprint = new X509Certificate(upload.certificatePem).fingerprint256;
    expect(settings.presented).to.deep.include({ source: 'custom' });
    expect(settings.presented.certificate.sha256Fingerprint).to.equal(fingerprint);
    expect(settings.custom?.names).to.deep.equal(['nas.local']);

    now += 4 * dayMs;
    expect(await box.daemon.scheduler.runNow(tlsMaintainTask)).to.equal(true);
    const after = await admin.api.tls.settings();
    expect(after.presented.source).to.equal('box');
    expect(after.custom?.sha256Fingerprint).to.equal(fingerprint);

    expect((await admin.api.tls.clearCustom()).custom).to.equal(null);
    expect(filesBelow(box.dataDir).some((text) => text.includes(upload.privateKeyPem.split('\n')[1]!))).to.equal(false);
  });

  it('replaces the authority and reissues the box certificate, and logs it without keys', async () => {
    const before = await admin.api.tls.settings();
    const settings = await admin.api.tls.createAuthority({ body: { localDomain: 'home.arpa' } });
    expect(settings.authority.root.sha256Fingerprint).to.not.equal(before.authority.root.sha256Fingerprint);
    expect(settings.authority.localDomain).to.equal('home.arpa');
    expect(settings.authority.scope.dnsNames).to.include('home.arpa');
    expect(settings.box.issuer).to.equal(settings.authority.intermediate.subject);
    // The extra names of the old scope that the new one does not hold are left out.
    expect(settings.box.names).to.not.include('files.local');
    expect((await box.client().api.system.setup()).rootCaFingerprint).to.equal(settings.authority.root.sha256Fingerprint);
    await expectProblem(admin.api.tls.createAuthority({ body: { localDomain: 'bad domain' } }), 'request.body.invalid', 400);

    const logs = await admin.api.logs.list({ query: { search: 'authority' } });
    expect(logs.items.map((e) => e.message)).to.include('certificate authority replaced');
    const all = await admin.api.logs.list({ query: { limit: 1000 } });
    expect(JSON.stringify(all.items)).to.not.match(/PRIVATE KEY/);
  });

  it('refuses a public top-level domain or suffix as the local domain, naming it, and keeps the authority', async () => {
    const before = await admin.api.tls.settings();
    for (const domain of ['com', 'DE', 'example', 'co.uk', 'com.au']) {
      const refused = await expectProblem(admin.api.tls.createAuthority({ body: { localDomain: domain } }), 'tls.domain.public', 422);
      expect(refused.problem.params).to.deep.equal({ domain });
    }
    expect((await admin.api.tls.settings()).authority.root.sha256Fingerprint).to.equal(before.authority.root.sha256Fingerprint);
    // A private-use single label, or a domain of one's own below a public suffix, is the house's.
    expect((await admin.api.tls.createAuthority({ body: { localDomain: 'lan' } })).authority.scope.dnsNames).to.include('lan');
    expect((await admin.api.tls.createAuthority({ body: { localDomain: 'nas.example.co.uk' } })).authority.localDomain).to.equal('nas.example.co.uk');
  });
});

describe('tls API: a host name that is a public domain', function () {
  this.timeout(120_000);
  let host = { hostname: 'com', addresses: ['127.0.0.1'] };
  let box: TestDaemon;
  let admin: TestClient;

  before(async () => {
    box = await startTestDaemon({}, { tls: { host: () => host } });
    admin = await box.signIn();
  });
  after(() => box.close());

  it("leaves a top-level domain or public suffix as the box's host name out of the scope, so the authority cannot sign under it", async () => {
    let settings = await admin.api.tls.settings();
    expect(settings.authority.scope.dnsNames).to.have.members(['local', 'localhost']);
    expect(settings.names.automatic).to.have.members(['com.local', 'localhost', '127.0.0.1']);
    const refused = await expectProblem(admin.api.tls.issue({ body: { names: ['www.example.com'] } }), 'tls.name.out_of_scope', 422);
    expect(refused.problem.params).to.deep.equal({ name: 'www.example.com' });
    host = { hostname: 'co.uk', addresses: ['127.0.0.1'] };
    settings = await admin.api.tls.createAuthority({ body: {} });
    expect(settings.authority.scope.dnsNames).to.have.members(['local', 'localhost']);
    await expectProblem(admin.api.tls.issue({ body: { names: ['shop.co.uk'] } }), 'tls.name.out_of_scope', 422);
    // A usual host name, a single label that is no top-level domain, stays in the scope with its subdomains.
    host = { hostname: 'cellar', addresses: ['127.0.0.1'] };
    settings = await admin.api.tls.createAuthority({ body: {} });
    expect(settings.authority.scope.dnsNames).to.have.members(['cellar', 'local', 'localhost']);
    expect(settings.names.automatic).to.include('cellar');
  });
});

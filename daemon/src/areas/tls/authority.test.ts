import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { opensslVerify } from '../../../../test/helpers/openssl.ts';
import { createAuthority, issueServerCertificate, type AuthorityMaterial } from './authority.ts';
import { inScope, scopeFor } from './scope.ts';

describe('tls authority (checked by openssl verify)', function () {
  this.timeout(60_000);
  let authority: AuthorityMaterial;
  const now = Date.now();

  before(async () => {
    authority = await createAuthority({ now, hostname: 'cellar', localDomain: 'home.arpa' });
  });

  it('issues a server certificate whose chain openssl accepts for its names', async () => {
    const names = ['cellar', 'cellar.home.arpa', 'localhost', '192.168.1.20', '::1'];
    const leaf = await issueServerCertificate(authority, names, { now, lifetimeDays: 390 });
    const verify = (extra: { hostname?: string; ip?: string }) =>
      opensslVerify({ root: authority.rootPem, intermediates: authority.intermediatePem, leaf: leaf.certificatePem, ...extra });
    expect(verify({ hostname: 'cellar.home.arpa' })).to.deep.include({ ok: true });
    expect(verify({ ip: '192.168.1.20' })).to.deep.include({ ok: true });
    expect(verify({ hostname: 'other.example' }).ok).to.equal(false);
    const cert = new X509Certificate(leaf.certificatePem);
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).to.be.below(398 * 24 * 3600 * 1000);
    expect(cert.ca).to.equal(false);
  });

  it('gives the intermediate name constraints that openssl enforces on names outside the scope', async () => {
    for (const name of ['example.com', 'cellar.example.com', '8.8.8.8', '2001:db8::1']) {
      const leaf = await issueServerCertificate(authority, [name], { now, lifetimeDays: 30 });
      const result = opensslVerify({ root: authority.rootPem, intermediates: authority.intermediatePem, leaf: leaf.certificatePem });
      expect(result.ok, name).to.equal(false);
      expect(result.output, name).to.match(/permitted subtree violation/);
    }
  });

  it('keeps the root apart from server certificates: only the intermediate signs them', () => {
    const root = new X509Certificate(authority.rootPem);
    const intermediate = new X509Certificate(authority.intermediatePem);
    expect(root.ca && intermediate.ca).to.equal(true);
    expect(intermediate.checkIssued(root) && intermediate.verify(root.publicKey)).to.equal(true);
    expect(root.verify(root.publicKey)).to.equal(true);
    expect(Date.parse(root.validTo)).to.be.greaterThan(now + 19 * 365 * 24 * 3600 * 1000);
  });
});

describe('tls scope', () => {
  const scope = scopeFor('Cellar', 'local');

  it('holds the host name, the local domain, localhost and their subdomains', () => {
    for (const name of ['cellar', 'nas.cellar', 'cellar.local', 'printer.local', 'localhost', '*.cellar.local'])
      expect(inScope(name, scope), name).to.equal(true);
    for (const name of ['example.com', 'local.example.com', 'cellarx', 'notlocal']) expect(inScope(name, scope), name).to.equal(false);
  });

  it('holds private, link-local and loopback addresses only', () => {
    for (const ip of ['10.1.2.3', '172.31.255.1', '192.168.0.9', '127.0.0.1', '169.254.3.3', 'fd12::1', 'fe80::1', '::1'])
      expect(inScope(ip, scope), ip).to.equal(true);
    for (const ip of ['172.32.0.1', '8.8.8.8', '192.169.0.1', '2001:db8::1', '::2']) expect(inScope(ip, scope), ip).to.equal(false);
  });
});

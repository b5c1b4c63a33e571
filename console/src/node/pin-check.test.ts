import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { createAuthority, issueServerCertificate, type AuthorityMaterial } from '../../../daemon/src/areas/tls/authority.ts';
import { checkPinned } from './pin-check.ts';

describe('console pin check (certificates from the daemon authority code)', function () {
  this.timeout(120_000);
  const now = new Date();
  const names = ['cellar.home.arpa', '192.168.1.20'];
  let box: AuthorityMaterial;
  let leaf: string;

  before(async () => {
    box = await createAuthority({ now: now.getTime(), hostname: 'cellar', localDomain: 'home.arpa' });
    leaf = (await issueServerCertificate(box, names, { now: now.getTime(), lifetimeDays: 390 })).certificatePem;
  });

  const check = (chain: string[], extra: { hostname?: string; pinnedRootPem?: string | null; at?: Date } = {}) =>
    checkPinned({
      hostname: extra.hostname ?? 'cellar.home.arpa',
      chain,
      pinnedRootPem: extra.pinnedRootPem === undefined ? box.rootPem : extra.pinnedRootPem,
      boxNames: names,
      now: extra.at ?? now,
    });

  it('accepts the box chain to the pinned root, with or without the root itself, by name and address', () => {
    expect(check([leaf, box.intermediatePem])).to.deep.equal({ accept: true });
    expect(check([leaf, box.intermediatePem, box.rootPem])).to.deep.equal({ accept: true });
    expect(check([leaf, box.intermediatePem], { hostname: '192.168.1.20' })).to.deep.equal({ accept: true });
  });

  it('refuses every chain before a root is pinned', () => {
    expect(check([leaf, box.intermediatePem], { pinnedRootPem: null })).to.deep.equal({ accept: false, reason: 'notPinned' });
  });

  it('refuses another root, and a changed root of the same box, naming the root presented', async () => {
    const other = await createAuthority({ now: now.getTime(), hostname: 'cellar', localDomain: 'home.arpa' });
    const otherLeaf = (await issueServerCertificate(other, names, { now: now.getTime(), lifetimeDays: 30 })).certificatePem;
    const presented = new X509Certificate(other.rootPem).fingerprint256;
    expect(check([otherLeaf, other.intermediatePem, other.rootPem])).to.deep.equal({ accept: false, reason: 'otherRoot', presentedRoot: presented });
    expect(check([otherLeaf, other.intermediatePem])).to.deep.equal({ accept: false, reason: 'otherRoot', presentedRoot: null });
    // The box's own authority replaced: the pin to the old root refuses it until the user trusts again.
    expect(check([leaf, box.intermediatePem], { pinnedRootPem: other.rootPem })).to.deep.include({ accept: false, reason: 'otherRoot' });
    // A leaf of the other authority presented beside the pinned intermediate is a broken chain.
    expect(check([otherLeaf, box.intermediatePem, box.rootPem])).to.deep.equal({ accept: false, reason: 'chainBroken' });
  });

  it('refuses a name outside the box: a name the console does not know it by, or one the leaf does not cover', async () => {
    expect(check([leaf, box.intermediatePem], { hostname: 'bank.example' })).to.deep.equal({ accept: false, reason: 'nameOutside' });
    const narrow = (await issueServerCertificate(box, ['printer.home.arpa'], { now: now.getTime(), lifetimeDays: 30 })).certificatePem;
    expect(check([narrow, box.intermediatePem])).to.deep.equal({ accept: false, reason: 'nameOutside' });
  });

  it('refuses an expired leaf and garbage', () => {
    expect(check([leaf, box.intermediatePem], { at: new Date(now.getTime() + 400 * 24 * 3600 * 1000) })).to.deep.equal({ accept: false, reason: 'expired' });
    expect(check(['not a certificate'])).to.deep.equal({ accept: false, reason: 'chainBroken' });
    expect(check([])).to.deep.equal({ accept: false, reason: 'chainBroken' });
  });
});

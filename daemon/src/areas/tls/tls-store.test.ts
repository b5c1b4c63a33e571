import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createAuthority, issueServerCertificate } from './authority.ts';
import { TlsStore } from './tls-store.ts';

describe('tls store restore', function () {
  this.timeout(60_000);
  let work: string;

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-tls-store-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('replaces the folder with the snapshot, and leaves the old one whole when a key of the snapshot does not seal', async () => {
    const now = Date.now();
    const store = new TlsStore(path.join(work, 'tls'), path.join(work, 'tls-secret'));
    const authority = await createAuthority({ now, hostname: 'cellar', localDomain: 'local' });
    store.writeAuthority(authority);
    store.writeBox(await issueServerCertificate(authority, ['cellar.local'], { now, lifetimeDays: 30 }));
    const before = store.snapshot();

    const other = await createAuthority({ now, hostname: 'cellar', localDomain: 'home.arpa' });
    const broken = {
      ...before,
      authority: other,
      box: { ...before.box!, privateKeyPem: '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n' },
    };
    expect(() => store.restore(broken)).to.throw();
    expect(store.snapshot()).to.deep.equal(before);
    expect(readdirSync(work).sort()).to.deep.equal(['tls', 'tls-secret']);

    store.restore({ ...before, authority: other });
    expect(store.readAuthority()?.rootPem).to.equal(other.rootPem);
    expect(store.readBox()).to.deep.equal(before.box);
    expect(readdirSync(work).sort()).to.deep.equal(['tls', 'tls-secret']);
  });
});

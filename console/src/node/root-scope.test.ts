import { expect } from 'chai';
import { createAuthority } from '../../../daemon/src/areas/tls/authority.ts';
import { legacyAuthority } from '../../../test/helpers/certificates.ts';
import { rootScope } from './root-scope.ts';

describe('console: what a root can vouch for (its name constraints)', function () {
  this.timeout(60_000);

  it("reads the scope of a box's root, names and address ranges as the box made them", async () => {
    const authority = await createAuthority({ now: Date.now(), hostname: 'attic', localDomain: 'home.arpa' });
    expect(rootScope(authority.rootPem)).to.deep.equal({ constrained: true, dnsNames: authority.scope.dnsNames, ipRanges: authority.scope.ipRanges });
  });

  it('says that a root without name constraints (made by a box before them) vouches for any name', async () => {
    const legacy = await legacyAuthority({ hostname: 'attic', localDomain: 'home.arpa' });
    expect(rootScope(legacy.rootPem)).to.deep.equal({ constrained: false, dnsNames: [], ipRanges: [] });
    expect(rootScope('not a certificate')).to.deep.equal({ constrained: false, dnsNames: [], ipRanges: [] });
  });
});

import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import type { InstalledRoot } from '../../../../shared/src/api/installer/installer.ts';
import { createAuthority } from '../tls/authority.ts';
import { defaultLocalDomain } from '../tls/tls.service.ts';
import { TlsStore } from '../tls/tls-store.ts';

/**
 * Makes the installed box's certificate authority in its data directory, with the TLS area's own
 * code and store, as the box's first start would (for the default local domain): the console gets
 * the root through the claimed channel now and pins it, so the box's first start needs no second
 * comparison of a fingerprint. The box issues its own certificate at its first start, for the
 * names and addresses it has then.
 */
export async function makeBoxAuthority(dataDir: string, hostname: string, now: number): Promise<InstalledRoot> {
  const authority = await createAuthority({ now, hostname, localDomain: defaultLocalDomain });
  new TlsStore(path.join(dataDir, 'tls'), path.join(dataDir, 'tls-secret')).writeAuthority(authority);
  return { certificate: authority.rootPem, sha256Fingerprint: new X509Certificate(authority.rootPem).fingerprint256 };
}

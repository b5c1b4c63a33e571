import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { TlsStore } from '../daemon/src/areas/tls/tls-store.ts';
import { adminPassword, startTestDaemon } from '../test/helpers/daemon.ts';
import { httpsClient } from '../test/helpers/https-client.ts';
import { runs } from './lib/best-of.ts';
import { load } from './lib/load.ts';
import type { BenchRow } from './lib/table.ts';

const seconds = 3;
const concurrency = 8;

/**
 * HTTPS API requests (a signed-in GET /api/auth/session, keep-alive) against the same requests
 * to the same daemon's app over plain HTTP: one process, one session, a second listener without TLS.
 */
export async function tlsBench(): Promise<BenchRow[]> {
  const box = await startTestDaemon({ https: true });
  const plain = createServer(box.daemon.app);
  try {
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const root = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!.rootPem;
    const client = httpsClient(box.url, root);
    await client.signIn('admin', adminPassword);
    const headers = { Cookie: client.cookieHeader() };
    client.close();
    const httpUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/api/auth/session`;
    const rate = (url: string) => async () => {
      const result = await load(url, { seconds, concurrency, headers, ca: root });
      if (result.errors) throw new Error(`${result.errors} requests to ${url} failed`);
      return result.perSecond;
    };
    const measureHttps = rate(`${box.url}/api/auth/session`);
    const measureHttp = rate(httpUrl);
    // Alternated, so that other work on a shared machine weighs on both alike; the best run of each counts.
    let https = 0;
    let http = 0;
    for (let i = 0; i <= runs; i++) {
      const [a, b] = [await measureHttps(), await measureHttp()];
      // The first pair warms up connections and code.
      if (i === 0) continue;
      https = Math.max(https, a);
      http = Math.max(http, b);
    }
    return [
      {
        name: `HTTPS API requests, keep-alive (${concurrency} connections)`,
        value: https,
        unit: 'req/s',
        baseline: http,
        baselineName: 'same daemon over HTTP',
        target: '≥ 0.8 of HTTP',
        ok: https / http >= 0.8,
      },
    ];
  } finally {
    plain.closeAllConnections();
    await new Promise<void>((resolve) => plain.close(() => resolve()));
    await box.close();
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDaemon } from '../test/helpers/daemon.ts';
import { runs } from './lib/best-of.ts';
import { startSignedInDaemon } from './lib/daemon-session.ts';
import { freePort } from './lib/free-port.ts';
import { load } from './lib/load.ts';
import { requireNginx } from './lib/nginx.ts';
import { spawnUntilReady, tsxCommand } from './lib/spawn-server.ts';
import type { BenchRow } from './lib/table.ts';

const seconds = 3;
const concurrency = 8;

interface Pair {
  proxied: number;
  direct: number;
}

/** Requests per second through `proxyUrl` and straight to `directUrl`, alternated; the best run of each counts. */
async function measure(proxyUrl: string, directUrl: string, headers: Record<string, string>): Promise<Pair> {
  const rate = async (url: string) => {
    const result = await load(url, { seconds, concurrency, headers });
    if (result.errors) throw new Error(`${result.errors} requests to ${url} failed`);
    return result.perSecond;
  };
  // Alternated, so that other work on a shared machine weighs on both alike.
  const best = { proxied: 0, direct: 0 };
  for (let i = 0; i <= runs; i++) {
    const [proxied, direct] = [await rate(proxyUrl), await rate(directUrl)];
    // The first pair warms up connections and code.
    if (i === 0) continue;
    best.proxied = Math.max(best.proxied, proxied);
    best.direct = Math.max(best.direct, direct);
  }
  return best;
}

/**
 * Requests per second through a proxy host (the daemon's nginx on loopback ports) against the
 * same requests sent to the target directly, in one run.
 *
 * The measured target is an app as a box publishes them: a Node web app answering a signed-in API
 * request (the box's own daemon in a process of its own, GET /api/auth/session, the request of the
 * HTTPS bench). A second, informational row puts a target that does no work at all behind the same
 * proxy: there the proxy's own cost is the whole difference. On loopback a proxied request is two
 * TCP round trips instead of one, and the load generator, nginx and the target share this
 * machine's cores, where a real client is another device; so that row shows the proxy's cost per
 * request rather than what a household's services lose behind it.
 */
export async function proxyBench(): Promise<BenchRow[]> {
  await requireNginx();
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-proxy-'));
  const app = await startSignedInDaemon(path.join(dir, 'app'));
  const bareTargetPort = await freePort();
  const bare = await spawnUntilReady(tsxCommand(path.join(import.meta.dirname, 'lib/hello-server.ts')), `http://127.0.0.1:${bareTargetPort}/`, {
    PORT: String(bareTargetPort),
  });
  const ports = { http: await freePort(), https: await freePort() };
  const box = await startTestDaemon({}, { proxy: { ports, address: '127.0.0.1' } });
  try {
    const admin = await box.signIn();
    const publish = (domain: string, port: number) =>
      admin.api.proxy.createHost({ body: { domains: [domain], target: { scheme: 'http', host: '127.0.0.1', port }, tls: { mode: 'none' } } });
    await publish('app.bench.local', Number(new URL(app.base).port));
    await publish('bare.bench.local', bareTargetPort);
    const proxy = `http://127.0.0.1:${ports.http}`;
    const sessionPath = '/api/auth/session';
    const appRates = await measure(`${proxy}${sessionPath}`, `${app.base}${sessionPath}`, { Host: 'app.bench.local', Cookie: app.headers.Cookie ?? '' });
    const bareRates = await measure(`${proxy}/`, `http://127.0.0.1:${bareTargetPort}/`, { Host: 'bare.bench.local' });
    return [
      {
        name: `Requests through a proxy host to an app (signed-in API request, keep-alive, ${concurrency} connections)`,
        value: appRates.proxied,
        unit: 'req/s',
        baseline: appRates.direct,
        baselineName: 'the app directly',
        target: '≥ 0.8 of direct',
        ok: appRates.proxied / appRates.direct >= 0.8,
      },
      {
        name: `Requests through a proxy host to a target that does no work (the proxy's own cost, ${concurrency} connections)`,
        value: bareRates.proxied,
        unit: 'req/s',
        baseline: bareRates.direct,
        baselineName: 'that target directly',
        target: 'informational',
        ok: true,
      },
    ];
  } finally {
    await box.close();
    await bare.stop();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

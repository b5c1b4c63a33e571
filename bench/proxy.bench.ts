import path from 'node:path';
import { startTestDaemon } from '../test/helpers/daemon.ts';
import { runs } from './lib/best-of.ts';
import { freePort } from './lib/free-port.ts';
import { load } from './lib/load.ts';
import { requireNginx } from './lib/nginx.ts';
import { spawnUntilReady, tsxCommand } from './lib/spawn-server.ts';
import type { BenchRow } from './lib/table.ts';

const seconds = 3;
const concurrency = 8;

/**
 * Requests per second through a proxy host (the daemon's nginx on loopback ports) against the
 * same requests sent to the target directly, in one run: the target is a server process of its own.
 */
export async function proxyBench(): Promise<BenchRow[]> {
  await requireNginx();
  const targetPort = await freePort();
  const target = await spawnUntilReady(tsxCommand(path.join(import.meta.dirname, 'lib/hello-server.ts')), `http://127.0.0.1:${targetPort}/`, {
    PORT: String(targetPort),
  });
  const ports = { http: await freePort(), https: await freePort() };
  const box = await startTestDaemon({}, { proxy: { ports, address: '127.0.0.1' } });
  try {
    const admin = await box.signIn();
    await admin.api.proxy.createHost({
      body: { domains: ['bench.local'], target: { scheme: 'http', host: '127.0.0.1', port: targetPort }, tls: { mode: 'none' } },
    });
    const rate = (url: string, headers: Record<string, string>) => async () => {
      const result = await load(url, { seconds, concurrency, headers });
      if (result.errors) throw new Error(`${result.errors} requests to ${url} failed`);
      return result.perSecond;
    };
    const measureProxy = rate(`http://127.0.0.1:${ports.http}/`, { Host: 'bench.local' });
    const measureDirect = rate(`http://127.0.0.1:${targetPort}/`, { Host: 'bench.local' });
    // Alternated, so that other work on a shared machine weighs on both alike; the best run of each counts.
    let proxied = 0;
    let direct = 0;
    for (let i = 0; i <= runs; i++) {
      const [a, b] = [await measureProxy(), await measureDirect()];
      // The first pair warms up connections and code.
      if (i === 0) continue;
      proxied = Math.max(proxied, a);
      direct = Math.max(direct, b);
    }
    return [
      {
        name: `Requests through a proxy host, keep-alive (${concurrency} connections)`,
        value: proxied,
        unit: 'req/s',
        baseline: direct,
        baselineName: 'the target directly',
        target: '≥ 0.8 of direct',
        ok: proxied / direct >= 0.8,
      },
    ];
  } finally {
    await box.close();
    await target.stop();
  }
}

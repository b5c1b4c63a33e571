import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load } from './lib/load.ts';
import { daemonCommand, residentMb, spawnUntilReady, tsxCommand } from './lib/spawn-server.ts';
import type { BenchRow } from './lib/table.ts';
import { cookieHeader } from './lib/cookies.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const password = 'bench password 12345';

/** Signed-in session reads against bare Express; cold start and idle memory of the daemon. */
export async function platformBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const barePort = await freePort();
  const bare = await spawnUntilReady(tsxCommand('bench/fixtures/bare-express.ts'), `http://127.0.0.1:${barePort}/api/health`, { PORT: String(barePort) });

  const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-'));
  const port = await freePort();
  const env = { BOX_PORT: String(port), BOX_DATA_DIR: dataDir, BOX_ADMIN_PASSWORD: password, BOX_LOG_LEVEL: 'warn' };
  // The first start also creates the database and the administrator; a box restarts far more often than it is new.
  const first = await spawnUntilReady(await daemonCommand(), `http://127.0.0.1:${port}/api/health`, env);
  await first.stop();
  const daemon = await spawnUntilReady(await daemonCommand(), `http://127.0.0.1:${port}/api/health`, env);
  try {
    rows.push({
      name: 'first start (new data directory)',
      value: first.readyMs,
      unit: 'ms',
      baseline: bare.readyMs,
      baselineName: 'bare Express under tsx',
      target: 'informational',
      ok: true,
    });
    rows.push({
      name: 'cold start to first /api/health 200',
      value: daemon.readyMs,
      unit: 'ms',
      baseline: bare.readyMs,
      baselineName: 'bare Express under tsx',
      target: 'under 1500 ms',
      ok: daemon.readyMs < 1500,
    });
    await new Promise((r) => setTimeout(r, 2000));
    const rss = residentMb(daemon.child.pid ?? 0);
    const bareRss = residentMb(bare.child.pid ?? 0);
    rows.push({
      name: 'idle resident memory after start',
      value: rss,
      unit: 'MB',
      baseline: bareRss,
      baselineName: 'bare Express under tsx',
      target: 'under 120 MB',
      ok: rss < 120,
    });

    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const cookie = cookieHeader(login);
    const options = { seconds: 4, concurrency: 16 };
    // Warm both up so JIT and caches do not decide the ratio.
    await load(`http://127.0.0.1:${barePort}/api/auth/session`, { ...options, seconds: 1 });
    await load(`http://127.0.0.1:${port}/api/auth/session`, { ...options, seconds: 1, headers: { Cookie: cookie } });
    const baseline = await load(`http://127.0.0.1:${barePort}/api/auth/session`, options);
    const ours = await load(`http://127.0.0.1:${port}/api/auth/session`, { ...options, headers: { Cookie: cookie } });
    if (ours.errors > 0) throw new Error(`${ours.errors} session requests failed`);
    const ratio = ours.perSecond / baseline.perSecond;
    rows.push({
      name: 'signed-in GET /api/auth/session',
      value: ours.perSecond,
      unit: 'req/s',
      baseline: baseline.perSecond,
      baselineName: 'bare Express 5 handler',
      target: 'ratio at least 0.65',
      ok: ratio >= 0.65,
    });
    // A route late in the list, matched after nearly every other pattern, and one read of the database: what routing costs beside the
    // session read. (Storage reads ask zpool on each request, which would measure the command instead.)
    await load(`http://127.0.0.1:${port}/api/notifications`, { ...options, seconds: 1, headers: { Cookie: cookie } });
    const late = await load(`http://127.0.0.1:${port}/api/notifications`, { ...options, headers: { Cookie: cookie } });
    if (late.errors > 0) throw new Error(`${late.errors} notification list reads failed`);
    rows.push({
      name: 'signed-in GET /api/notifications (a late route)',
      value: late.perSecond,
      unit: 'req/s',
      baseline: baseline.perSecond,
      baselineName: 'bare Express 5 handler',
      target: 'printed beside the session read',
      ok: true,
    });
  } finally {
    await daemon.stop();
    await bare.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

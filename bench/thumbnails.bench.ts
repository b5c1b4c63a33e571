import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDaemon } from '../daemon/src/daemon.ts';
import { createApiClient } from '../shared/src/client.ts';
import { cookieFetch } from '../test/helpers/cookie-fetch.ts';
import { photo } from '../test/helpers/images.ts';
import type { BenchRow } from './lib/table.ts';

const run = promisify(execFile);
const photos = 24;
/** About 6 MP, the size of a common phone or camera photo after export. */
const [width, height] = [3000, 2000];
const password = 'bench password 12345';
const installHint = 'flock /tmp/apt.lock apt-get install -y --no-install-recommends libvips-tools';

async function requireVipsThumbnail(): Promise<void> {
  try {
    await run('vipsthumbnail', ['--version']);
  } catch {
    throw new Error(`vipsthumbnail (the baseline) is missing; install it with: ${installHint}`);
  }
}

/** The baseline: Debian's vipsthumbnail rendering the same photos to 256 px WebP of the same quality in one process. */
async function vipsRate(folder: string, names: string[]): Promise<number> {
  const out = mkdtempSync(path.join(tmpdir(), 'cellar-bench-vips-'));
  try {
    const started = performance.now();
    await run('vipsthumbnail', ['-s', '256', '-o', `${out}/%s.webp[Q=80]`, ...names.map((n) => path.join(folder, n))], { maxBuffer: 1 << 20 });
    const seconds = (performance.now() - started) / 1000;
    if (readdirSync(out).length !== names.length) throw new Error('vipsthumbnail did not write every thumbnail');
    return names.length / seconds;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Ours end to end: one states request queues every photo, then polled until all are ready (the render queue's own pace). */
async function daemonRate(folder: string, names: string[]): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-'));
  const daemon = await createDaemon({
    config: {
      mode: 'development',
      host: '127.0.0.1',
      port: 0,
      adminPassword: password,
      logLevel: 'warn',
      logToConsole: false,
      validateResponses: false,
      webDir: null,
      dataDir,
    },
    env: {},
  });
  await daemon.start();
  try {
    const jar = cookieFetch();
    let csrf: string | null = null;
    const api = createApiClient({ baseUrl: daemon.url(), fetch: jar.fetch, csrfToken: () => csrf });
    const login = await api.auth.login({ body: { username: 'admin', password } });
    if (login.state !== 'signedIn') throw new Error('the bench administrator needs no second factor');
    csrf = login.user.csrfToken;
    const share = await api.shares.create({ body: { name: 'Bench photos', hostPath: folder } });
    const ask = () => api.thumbnails.states({ params: { shareId: share.id }, body: { paths: names, size: 256 } });
    const started = performance.now();
    let states = await ask();
    while (states.items.some((s) => s.state === 'queued')) {
      await new Promise((r) => setTimeout(r, 20));
      states = await ask();
    }
    const seconds = (performance.now() - started) / 1000;
    const failed = states.items.filter((s) => s.state !== 'ready');
    if (failed.length) throw new Error(`${failed.length} thumbnails were not rendered: ${JSON.stringify(failed[0])}`);
    return names.length / seconds;
  } finally {
    await daemon.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Thumbnails per second of our render queue against vipsthumbnail on the same generated photos. */
export async function thumbnailsBench(): Promise<BenchRow[]> {
  await requireVipsThumbnail();
  const folder = mkdtempSync(path.join(tmpdir(), 'cellar-bench-photos-'));
  try {
    mkdirSync(folder, { recursive: true });
    const names = Array.from({ length: photos }, (_, i) => `photo-${String(i).padStart(3, '0')}.jpg`);
    for (const [i, name] of names.entries())
      await photo(width, height, i + 1)
        .jpeg({ quality: 90 })
        .toFile(path.join(folder, name));
    // Warm the page cache and both decoders, so neither pays for the first read of the photos.
    await vipsRate(folder, names.slice(0, 4));
    const baseline = await vipsRate(folder, names);
    const ours = await daemonRate(folder, names);
    return [
      {
        name: `thumbnails of ${photos} ${width}x${height} JPEG photos, 256 px WebP`,
        value: ours,
        unit: 'photos/s',
        baseline,
        baselineName: 'vipsthumbnail',
        target: 'ratio at least 0.5',
        ok: ours / baseline >= 0.5,
      },
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

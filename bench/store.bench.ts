import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildCatalog, type CatalogSource } from '../build/scripts/build-catalog.ts';
import { CatalogCopies, defaultMaxCatalogBytes } from '../daemon/src/areas/store/catalog-copies.ts';
import { createLogger } from '../daemon/src/core/logger.ts';
import { startGitHttp } from '../test/helpers/git-servers.ts';
import { startSignedInDaemon } from './lib/daemon-session.ts';
import type { BenchRow } from './lib/table.ts';

const run = promisify(execFile);
const appCount = 1000;

/** A catalog of 1,000 small apps, one version each: 1,000 packages, icons and their hashes to check. */
async function makeCatalog(dir: string): Promise<void> {
  const source: CatalogSource = { name: 'Bench', apps: [] };
  for (let i = 0; i < appCount; i++) {
    const folder = path.join(dir, 'apps', String(i));
    mkdirSync(path.join(folder, 'frontend'), { recursive: true });
    const manifest = {
      id: `org.bench.app${i}`,
      name: `Bench app ${i}`,
      version: '1.0.0',
      dataVersion: 1,
      minBoxVersion: '0.1.0',
      description: `App number ${i} of the benchmark`,
      author: `Author ${i % 37}`,
      homepage: null,
      permissions: [],
      storage: [],
      backend: null,
    };
    writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(folder, 'icon.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="${(i % 8) + 1}" height="8"/></svg>`);
    writeFileSync(path.join(folder, 'frontend', 'index.html'), `<!doctype html><title>${i}</title>`);
    source.apps.push({ versions: [{ folder, publishedAt: '2026-11-25T00:00:00.000Z' }] });
  }
  await buildCatalog(source, path.join(dir, 'git', 'bench'), 'catalog');
}

const seconds = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

/** Sync of a 1,000-version catalog against a bare git clone of it (target within 1.5x); the Store's search over 1,000 apps (under 50 ms). */
export async function storeBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-store-'));
  await makeCatalog(dir);
  const git = await startGitHttp(path.join(dir, 'git'));
  const url = `${git.url}/bench/.git`;
  const copies = new CatalogCopies({
    root: path.join(dir, 'copies'),
    keys: [],
    logger: createLogger({ level: 'error', console: false, sinks: [] }),
    timeoutMs: 300_000,
    maxBytes: defaultMaxCatalogBytes,
  });
  const daemon = await startSignedInDaemon(path.join(dir, 'data'));
  try {
    // Best of three each, in turns: a passing hiccup of the machine does not decide.
    const clones: number[] = [];
    const syncs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const into = path.join(dir, `bare-${i}`);
      clones.push(await seconds(() => run('git', ['clone', '--quiet', '--bare', '--depth', '1', '--single-branch', '--branch', 'catalog', url, into])));
      rmSync(into, { recursive: true, force: true });
      syncs.push(await seconds(() => copies.fetch({ key: 1, url, branch: 'catalog', signed: false })));
    }
    const clone = Math.min(...clones);
    const sync = Math.min(...syncs);

    const added = await daemon.json<{ key: number; id: string }>('POST', '/api/store/catalogs', { url });
    const deadline = Date.now() + 300_000;
    for (;;) {
      const state = await daemon.json<{ catalogs: { key: number; state: string }[] }>('GET', '/api/store');
      const c = state.catalogs.find((x) => x.key === added.key);
      if (c?.state === 'ok') break;
      if (c?.state === 'failed' || Date.now() > deadline) throw new Error(`the bench catalog was not fetched: ${c?.state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const searches: number[] = [];
    for (const q of ['', 'app9', 'author 3', 'number 512', 'nothing-like-it']) {
      for (let i = 0; i < 5; i++) searches.push(await seconds(() => daemon.json('GET', `/api/store/apps?q=${encodeURIComponent(q)}`)));
    }
    searches.sort((a, b) => a - b);
    const median = (searches[Math.floor(searches.length / 2)] ?? 0) * 1000;
    return [
      {
        name: `store: sync of a catalog of ${appCount} app versions`,
        value: sync,
        unit: 's',
        baseline: clone,
        baselineName: 'git clone --bare',
        target: 'ratio <= 1.5',
        ok: sync / clone <= 1.5,
      },
      { name: `store: GET /api/store/apps?q= over ${appCount} apps (median)`, value: median, unit: 'ms', target: 'under 50 ms', ok: median < 50 },
    ];
  } finally {
    await daemon.stop();
    await git.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

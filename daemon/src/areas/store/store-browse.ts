import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AppPackagePreview } from '../../../../shared/src/api/apps/app-packages.ts';
import { compareVersions } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { CatalogApp, CatalogVersion } from '../../../../shared/src/api/store/catalog-index.ts';
import type { StoreAppDetails, StoreAppList, StoreAppSummary } from '../../../../shared/src/api/store/apps.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { checkedFile, sha256Of } from './catalog-verify.ts';
import type { VerifiedCopy } from './catalog-copies.ts';
import { newestRunnable, type StoreService } from './store.service.ts';
import { catalogPlace, mayCarryToken } from './token-origin.ts';
import type { CatalogRow } from './store.model.ts';

export interface BrowseDeps {
  store: StoreService;
  /** The installed version of each app, by id. */
  installedVersions(): Promise<Map<string, string>>;
  /** The Apps area's upload path: the same checks, preview and 15 minutes of keeping; `source` is the catalog's id, which an install binds the app to. */
  takePackage(user: Principal, body: Readable, size: number, source: string): Promise<AppPackagePreview>;
  /** Where downloaded packages wait for their hash check. */
  tempDir: string;
  downloadTimeoutMs: number;
}

const imageTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml' };

function matches(v: CatalogVersion, app: CatalogApp, q: string): boolean {
  if (q === '') return true;
  const needle = q.toLowerCase();
  return [app.id, v.manifest.name, v.manifest.description, v.manifest.author].some((field) => field.toLowerCase().includes(needle));
}

/** Browsing the catalogs' verified copies: apps, their pages and images, and their packages. */
export class StoreBrowse {
  constructor(private readonly deps: BrowseDeps) {}

  private copyOf(row: CatalogRow): VerifiedCopy {
    const copy = this.deps.store.deps.copies.get(row.key);
    if (!copy) throw new ProblemError('store.catalog.not_fetched', { catalog: row.catalogId });
    return copy;
  }

  private async app(catalog: string, appId: string): Promise<{ row: CatalogRow; copy: VerifiedCopy; app: CatalogApp }> {
    const row = await this.deps.store.byId(catalog);
    const copy = this.copyOf(row);
    const app = copy.index.apps.find((a) => a.id === appId);
    if (!app) throw new ProblemError('store.app.not_found', { catalog, appId });
    return { row, copy, app };
  }

  private async version(catalog: string, appId: string, version: string) {
    const found = await this.app(catalog, appId);
    const v = found.app.versions.find((x) => x.manifest.version === version);
    if (!v) throw new ProblemError('store.version.not_found', { appId, version });
    return { ...found, v };
  }

  async list(query: { catalog?: string; q?: string }): Promise<StoreAppList> {
    const { store } = this.deps;
    const rows = query.catalog ? [await store.byId(query.catalog)] : await store.deps.models.catalogs.findAll({ where: { enabled: true } });
    const installed = await this.deps.installedVersions();
    const apps: StoreAppSummary[] = [];
    for (const row of rows) {
      const copy = store.deps.copies.get(row.key);
      for (const app of copy?.index.apps ?? []) {
        const v = newestRunnable(app, store.deps.boxVersion);
        if (!v || !matches(v, app, query.q ?? '')) continue;
        const m = v.manifest;
        apps.push({
          catalog: row.catalogId,
          verified: row.builtIn,
          appId: app.id,
          name: m.name,
          description: m.description,
          author: m.author,
          version: m.version,
          installedVersion: installed.get(app.id) ?? null,
        });
      }
    }
    apps.sort((a, b) => a.name.localeCompare(b.name) || a.catalog.localeCompare(b.catalog));
    return { apps };
  }

  async details(catalog: string, appId: string): Promise<StoreAppDetails> {
    const { row, app } = await this.app(catalog, appId);
    const box = this.deps.store.deps.boxVersion;
    const newestOfAll = app.versions.reduce((a, b) => (compareVersions(b.manifest.version, a.manifest.version) > 0 ? b : a));
    const shown = newestRunnable(app, box) ?? newestOfAll;
    const versions = [...app.versions]
      .sort((a, b) => compareVersions(b.manifest.version, a.manifest.version))
      .map((v) => ({
        version: v.manifest.version,
        dataVersion: v.manifest.dataVersion,
        minBoxVersion: v.manifest.minBoxVersion,
        publishedAt: v.publishedAt,
        runs: compareVersions(v.manifest.minBoxVersion, box) <= 0,
      }));
    return {
      catalog: row.catalogId,
      verified: row.builtIn,
      appId,
      version: shown.manifest.version,
      runs: compareVersions(shown.manifest.minBoxVersion, box) <= 0,
      manifest: shown.manifest,
      homepage: shown.manifest.homepage,
      source: app.source,
      icons: shown.icons.map((i) => i.name),
      screenshots: shown.screenshots.map((s) => s.name),
      installedVersion: (await this.deps.installedVersions()).get(appId) ?? null,
      versions,
    };
  }

  /** An icon (first one unless named) or a screenshot: a file of the verified copy whose bytes match the index. */
  async image(
    catalog: string,
    appId: string,
    version: string,
    kind: 'icon' | 'screenshot',
    name: string | undefined,
  ): Promise<{ file: string; type: string; etag: string }> {
    const { copy, v } = await this.version(catalog, appId, version);
    const list = kind === 'icon' ? v.icons : v.screenshots;
    const entry = name === undefined ? list[0] : list.find((i) => i.name === name);
    if (!entry) throw new ProblemError('store.image.not_found', { name: name ?? 'icon' });
    const file = await checkedFile(copy.root, entry.path, entry.sha256);
    // The index's hash names this very content: a strong ETag that holds across fetches of the catalog.
    return { file, type: imageTypes[entry.name.split('.').pop() ?? ''] ?? 'application/octet-stream', etag: `"${entry.sha256}"` };
  }

  /**
   * The package of a version, from the verified copy (or its https address), checked against the
   * index's hashes with its images, then through the Apps area's upload checks (box version,
   * downgrade with another dataVersion) and kept 15 minutes for `user`.
   */
  async takePackage(user: Principal, catalog: string, appId: string, version: string): Promise<AppPackagePreview> {
    const { row, copy, v } = await this.version(catalog, appId, version);
    for (const image of [...v.icons, ...v.screenshots]) await checkedFile(copy.root, image.path, image.sha256);
    if (v.package.path) {
      const file = await checkedFile(copy.root, v.package.path, v.package.sha256);
      return this.deps.takePackage(user, createReadStream(file), v.package.size, row.catalogId);
    }
    const dir = await mkdtemp(path.join(this.deps.tempDir, 'download-'));
    try {
      const file = path.join(dir, 'package');
      await writeFile(file, await this.download(v.package.url as string, v.package.size, row.readToken ?? null, row.url));
      if ((await sha256Of(file)) !== v.package.sha256) throw new ProblemError('store.package.hash_mismatch', { path: v.package.url });
      return await this.deps.takePackage(user, createReadStream(file), v.package.size, row.catalogId);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Downloads a package of a private or public https address, at most the size the index names; the read token goes only to the catalog's own place. */
  private async download(url: string, size: number, readToken: string | null, catalogUrl: string): Promise<Buffer> {
    const withheld = readToken !== null && !mayCarryToken(url, catalogUrl);
    const token = withheld ? null : readToken;
    const headers: Record<string, string> = token ? { Authorization: `Basic ${Buffer.from(token).toString('base64')}` } : {};
    const answer = await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(this.deps.downloadTimeoutMs) }).catch((err: unknown) => {
      // The cause names what failed (refused, certificate, time limit); the address carries no secret, the token is in a header.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ProblemError(
        'store.package.download_failed',
        { status: null },
        { detail: `${url} could not be reached: ${cause?.code ?? cause?.message ?? String(err)}` },
      );
    });
    if (answer.status === 401 || answer.status === 403)
      throw new ProblemError(
        'store.package.download_failed',
        { status: answer.status },
        {
          detail: withheld
            ? `${url} asks for a read token, which goes only to the catalog's own host (${catalogPlace(catalogUrl)?.host ?? 'unknown'})`
            : token
              ? `${url} refused the catalog's read token`
              : `${url} asks for a read token: set the catalog's read token (user:token)`,
        },
      );
    if (!answer.ok || !answer.body) throw new ProblemError('store.package.download_failed', { status: answer.status });
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.length;
      if (total > size) throw new ProblemError('store.package.hash_mismatch', { path: url });
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }
}

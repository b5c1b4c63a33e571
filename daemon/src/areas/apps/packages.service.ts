import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { packageLimits, type AppPackagePreview } from '../../../../shared/src/api/apps/app-packages.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { boundedBody } from '../../http/bounded-body.ts';
import { unpackPackage } from './package-archive.ts';
import { checkLayout } from './package-layout.ts';
import { previewOf, type InstalledApp } from './package-preview.ts';
import type { PackageStore } from './package-store.ts';

export interface PackagesDeps {
  store: PackageStore;
  /** The installed version's manifest of an app with its source; null when it is not installed. */
  installed(appId: string): Promise<InstalledApp | null>;
  boxVersion: string;
  logger: Logger;
}

/** Uploaded app packages: received, checked entry by entry, unpacked, previewed and kept for their uploader. */
export class PackagesService {
  constructor(private readonly deps: PackagesDeps) {}

  /** `source`: the catalog the Store took the package from; null for an upload by hand. */
  async upload(user: Principal, body: Readable, declaredLength: number | null, source: string | null = null): Promise<AppPackagePreview> {
    if (declaredLength !== null && declaredLength > packageLimits.bytes) throw new ProblemError('request.body.too_large', { limit: packageLimits.bytes });
    const { id, folder } = await this.deps.store.reserve();
    try {
      const files = path.join(folder, 'files');
      await mkdir(files, { mode: 0o700 });
      // Unpacked as it arrives, each entry checked before it is written; the package file itself is never kept.
      const summary = await unpackPackage(boundedBody(body, packageLimits.bytes), files);
      const contents = await checkLayout(files, this.deps.boxVersion);
      const installed = await this.deps.installed(contents.manifest.id);
      const kept = this.deps.store.keep({ id, ownerId: user.id, folder, source, ...contents, ...summary });
      const preview = previewOf(kept, installed);
      this.deps.logger.info('app package uploaded', {
        logCode: 'apps.packageUploaded',
        component: 'apps',
        packageId: id,
        appId: contents.manifest.id,
        version: contents.manifest.version,
        action: preview.action,
        source,
      });
      return preview;
    } catch (err) {
      await this.deps.store.drop(id);
      if (err instanceof ProblemError) this.deps.logger.info('app package refused', { component: 'apps', code: err.code, ...err.params });
      throw err;
    }
  }

  async preview(user: Principal, packageId: string): Promise<AppPackagePreview> {
    const kept = this.deps.store.get(packageId, user.id);
    return previewOf(kept, await this.deps.installed(kept.manifest.id));
  }

  async discard(user: Principal, packageId: string): Promise<void> {
    await this.deps.store.discard(packageId, user.id);
    this.deps.logger.info('app package discarded', { logCode: 'apps.packageDiscarded', component: 'apps', packageId });
  }
}

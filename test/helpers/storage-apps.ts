import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { TestClient } from './daemon.ts';
import { finished } from './file-operations.ts';
import { tgzOf } from './tar-builder.ts';

export const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;

/** The example app asking for files and for two folders: `greetings` read-write, `photos` read-only. */
export function storageApp(version = '1.0.0', extra: Partial<AppManifest> = {}): Buffer {
  const dir = 'examples/hello-app';
  const file = (name: string) => ({ name, body: readFileSync(path.join(dir, name)) });
  const manifest: AppManifest = {
    ...example,
    version,
    permissions: ['notifications', 'files'],
    storage: [
      { storageId: 'greetings', purpose: 'Keeps the greetings you save', access: 'readWrite' },
      { storageId: 'photos', purpose: 'Shows your photos', access: 'read' },
    ],
    ...extra,
  };
  return tgzOf([
    { name: 'manifest.json', body: JSON.stringify(manifest) },
    file('icon.svg'),
    { name: 'frontend/', type: 'dir' },
    file('frontend/index.html'),
    ...(manifest.backend ? [{ name: 'backend/', type: 'dir' as const }, file('backend/server.js')] : []),
  ]);
}

/** Uploads and installs a package on the app pool `tank`, expecting the job to succeed. */
export async function installApp(admin: TestClient, body: Buffer): Promise<void> {
  const preview = await admin.api.apps.uploadPackage({ body });
  const job = await finished(admin, (await admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: 'tank' } })).id, 60_000);
  expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
}

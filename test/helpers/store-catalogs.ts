import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildCatalog, type CatalogSource, type Signing } from '../../build/scripts/build-catalog.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { TestClient } from './daemon.ts';
import { sleep } from './jobs.ts';

/** A signing key of the tests and the key file that makes a development daemon trust it (config trustedKeysFile). */
export function testSigningKey(work: string, keyId = 'test-key'): { signing: Signing; keysFile: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keysFile = path.join(work, `${keyId}.json`);
  writeFileSync(keysFile, JSON.stringify([{ id: keyId, publicKey: publicKey.export({ type: 'spki', format: 'pem' }) }]));
  return { signing: { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), keyId }, keysFile };
}

/** An app folder made from the example app: frontend only, with the manifest fields changed. */
export function appFolder(work: string, change: { id: string; version: string } & Record<string, unknown>): string {
  const folder = path.join(work, 'apps', `${change.id}-${change.version}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(path.dirname(folder), { recursive: true });
  cpSync('examples/hello-app', folder, { recursive: true });
  rmSync(path.join(folder, 'backend'), { recursive: true, force: true });
  const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ ...manifest, backend: null, name: change.id.split('.').pop(), ...change }));
  return folder;
}

/** Builds a branch into `<root>/<name>` (served as `<url>/<name>/.git`). */
export function catalogBranch(root: string, name: string, branch: string, source: CatalogSource, signing?: Signing): Promise<string> {
  return buildCatalog(source, path.join(root, name), branch, signing);
}

/** A tiny PNG's first bytes: what the box serves is checked by hash, not decoded. */
export const pngBytes = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
/** Polls a job until it ends (fetches may take a few seconds: the stuck server's time limit). */
export async function ended(client: TestClient, id: number, ms = 20_000): Promise<Job> {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = await client.api.jobs.get({ params: { id } });
    if (job.state !== 'queued' && job.state !== 'running') return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
    await sleep(25);
  }
}

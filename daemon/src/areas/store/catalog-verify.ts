import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogIndexSchema, catalogLimits, type CatalogIndex } from '../../../../shared/src/api/store/catalog-index.ts';
import { verifyDetached, type TrustedKey } from '../../core/signed-index.ts';
import { ProblemError } from '../../core/problem-error.ts';

export const indexFile = 'index.json';
export const signatureFile = 'index.json.sig';

/** A regular file of the copy (never a link, never outside it); null when absent. */
async function plainFile(root: string, rel: string): Promise<string | null> {
  const file = path.join(root, rel);
  if (!file.startsWith(root + path.sep)) return null;
  const s = await lstat(file).catch(() => null);
  return s?.isFile() ? file : null;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Reads a file of the copy that the index names, and refuses it unless its bytes match the index's hash. */
export async function checkedFile(root: string, rel: string, sha256: string): Promise<string> {
  const file = await plainFile(root, rel);
  if (!file || (await sha256Of(file)) !== sha256) throw new ProblemError('store.package.hash_mismatch', { path: rel });
  return file;
}

/** Parses and checks an index's bytes with the one schema of the format. */
export function parseIndex(bytes: Buffer): CatalogIndex {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ProblemError('store.index.invalid', { errors: [{ path: '', message: 'index.json is not JSON' }] });
  }
  const { value, error } = catalogIndexSchema.validate(raw, { abortEarly: false, convert: false });
  if (error) throw new ProblemError('store.index.invalid', { errors: error.details.slice(0, 20).map((d) => ({ path: d.path.join('.'), message: d.message })) });
  const index = value as CatalogIndex;
  for (const app of index.apps)
    for (const v of app.versions)
      if (v.manifest.id !== app.id)
        throw new ProblemError('store.index.invalid', { errors: [{ path: `apps.${app.id}`, message: `a version's manifest is of ${v.manifest.id}` }] });
  return index;
}

/**
 * Checks a fresh copy before it may replace the verified one: the index parses, its detached
 * signature holds (project catalogs; `keys` null for custom ones) and every file it names in the
 * repository has the hash it says. Answers the index; throws the problem that refuses the copy.
 */
export async function verifyCopy(root: string, keys: readonly TrustedKey[] | null): Promise<CatalogIndex> {
  const file = await plainFile(root, indexFile);
  if (!file) throw new ProblemError('store.index.invalid', { errors: [{ path: '', message: 'the branch has no index.json' }] });
  if ((await lstat(file)).size > catalogLimits.indexBytes)
    throw new ProblemError('store.index.invalid', { errors: [{ path: '', message: 'index.json is too large' }] });
  const bytes = await readFile(file);
  if (keys) {
    const sigFile = await plainFile(root, signatureFile);
    const check = verifyDetached(bytes, sigFile ? await readFile(sigFile, 'utf8') : null, keys);
    if (!check.ok) throw new ProblemError('store.signature.invalid', { reason: check.reason });
  }
  const index = parseIndex(bytes);
  const files = index.apps.flatMap((app) =>
    app.versions.flatMap((v) => [...(v.package.path ? [{ path: v.package.path, sha256: v.package.sha256 }] : []), ...v.icons, ...v.screenshots]),
  );
  // A few at a time: a catalog of a thousand versions is hashed in parallel without opening every file at once.
  for (let i = 0; i < files.length; i += 16) {
    await Promise.all(
      files.slice(i, i + 16).map(async (f) => {
        const found = await plainFile(root, f.path);
        if (!found || (await sha256Of(found)) !== f.sha256) throw new ProblemError('store.file.hash_mismatch', { path: f.path });
      }),
    );
  }
  return index;
}

import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { appManifestSchema, compareVersions, reservedAppIdPrefix, type AppManifest } from '../../../../shared/src/api/apps/app-manifest.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { checkSvgIcon, maxIconBytes } from './svg-check.ts';

const maxManifestBytes = 64 * 1024;

export interface PackageContents {
  manifest: AppManifest;
  icon: string;
}

const invalid = (reason: string, params: Record<string, unknown> = {}) => new ProblemError('app.package.invalid', { reason, ...params });

/** The entry's lstat when it is a regular file (never a link to one) of at most `max` bytes. */
async function plainFile(file: string, missing: string, max: number): Promise<void> {
  const s = await lstat(file).catch(() => null);
  if (!s?.isFile()) throw invalid(missing);
  if (s.size > max) throw invalid(`${missing.replace(/Missing$/, '')}TooLarge`, { limit: max });
}

async function folder(dir: string, missing: string): Promise<void> {
  if (!(await lstat(dir).catch(() => null))?.isDirectory()) throw invalid(missing);
}

/**
 * Reads and checks what an unpacked package must hold: a valid manifest.json whose id is not the
 * box's own, an icon.svg that is only a picture, frontend/index.html, and backend/ when the
 * manifest names a backend. `boxVersion` is the version of this box.
 */
export async function checkLayout(root: string, boxVersion: string): Promise<PackageContents> {
  const manifestFile = path.join(root, 'manifest.json');
  await plainFile(manifestFile, 'manifestMissing', maxManifestBytes);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(manifestFile, 'utf8'));
  } catch {
    throw invalid('manifestUnreadable');
  }
  const { value, error } = appManifestSchema.validate(raw, { abortEarly: false, convert: false });
  if (error) throw invalid('manifestInvalid', { errors: error.details.map((d) => ({ path: d.path.join('.'), message: d.message })) });
  const manifest = value as AppManifest;
  if (manifest.id.startsWith(reservedAppIdPrefix)) throw new ProblemError('app.package.id_reserved', { id: manifest.id });
  if (compareVersions(manifest.minBoxVersion, boxVersion) > 0)
    throw new ProblemError('app.package.box_too_old', { needs: manifest.minBoxVersion, box: boxVersion });
  const iconFile = path.join(root, 'icon.svg');
  await plainFile(iconFile, 'iconMissing', maxIconBytes);
  const icon = await readFile(iconFile, 'utf8');
  checkSvgIcon(icon);
  await plainFile(path.join(root, 'frontend', 'index.html'), 'frontendMissing', Number.MAX_SAFE_INTEGER);
  if (manifest.backend) await folder(path.join(root, 'backend'), 'backendMissing');
  return { manifest, icon };
}

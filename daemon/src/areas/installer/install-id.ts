import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Joi from 'joi';
import { installIdResponse, type InstallIdResponse } from '../../../../shared/src/api/installer/installer.ts';

/** The install id's file in the daemon's data directory: written once by the installer, read by the installed box. */
export const installIdFile = 'install-id';

/** The box's install id, or null when no installer wrote one (a box from the package, the medium itself). */
export async function readInstallId(dataDir: string): Promise<InstallIdResponse | null> {
  const text = await readFile(path.join(dataDir, installIdFile), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return Joi.attempt(JSON.parse(text), installIdResponse.unknown(false)) as InstallIdResponse;
  } catch {
    // A damaged file identifies nothing; the console then treats the box as one it does not know.
    return null;
  }
}

export async function writeInstallId(dataDir: string, value: InstallIdResponse): Promise<void> {
  await writeFile(path.join(dataDir, installIdFile), `${JSON.stringify(value)}\n`, { mode: 0o644 });
}

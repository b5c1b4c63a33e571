import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder holding Cellar's package.json. Found by walking up from this module rather than
 * by a fixed relative path, because the same code runs from its sources (tsx, tests) and from
 * the bundled daemon under daemon/dist, which sit at different depths.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'cellar') return dir;
    if (path.dirname(dir) === dir) throw new Error(`Cellar's package.json was not found above ${from}`);
  }
}

export const packageRoot = findPackageRoot(import.meta.dirname);

/** A path inside the installed package, e.g. `installPath('daemon/public')`. */
export function installPath(relative: string): string {
  return path.join(packageRoot, relative);
}

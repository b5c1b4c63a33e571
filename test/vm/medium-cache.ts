import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildMedium, mediumCache } from '../../build/scripts/build-medium.js';

const git = (args: string[]) => execFileSync('git', args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });

/**
 * What the medium is built from: the committed tree, the uncommitted changes and the untracked
 * files (everything the package, the live system and the image come from). Debian's packages are
 * not part of it: a cached medium is at most as old as its sources say.
 */
export function mediumKey(): string {
  const hash = createHash('sha256');
  hash.update(git(['rev-parse', 'HEAD^{tree}']));
  hash.update(git(['diff', 'HEAD', '--binary']));
  const untracked = git(['ls-files', '--others', '--exclude-standard', '-z']).toString('utf8').split('\0').filter(Boolean).sort();
  for (const file of untracked) {
    if (!statSync(file).isFile()) continue;
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The medium of the current sources: the cached one when its inputs are unchanged, else built (and older ones removed). */
export async function currentMedium(log: (line: string) => void): Promise<{ iso: string; built: boolean }> {
  // A medium built by hand (`npm run medium`) when working on the test itself.
  const given = process.env.CELLAR_VM_MEDIUM;
  if (given) return { iso: path.resolve(given), built: false };
  const iso = path.join(mediumCache, `cellar-installer-${mediumKey()}.iso`);
  if (existsSync(iso)) return { iso, built: false };
  await buildMedium({ out: iso, log });
  for (const old of readdirSync(mediumCache))
    if (old.startsWith('cellar-installer-') && old.endsWith('.iso') && old !== path.basename(iso)) rmSync(path.join(mediumCache, old), { force: true });
  return { iso, built: true };
}

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildMedium, mediumCache } from '../../build/scripts/build-medium.js';

const repo = path.resolve(import.meta.dirname, '../..');
const git = (args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });

/** The sources that make no part of the medium: its tests, documents and benchmarks. */
const notInMedium = [':!test', ':!docs', ':!bench', ':!.ci', ':!*.md'];

/**
 * What the medium is built from: every other file as the index has it, the changes not yet
 * staged and the untracked files (everything the package, the live system and the image come
 * from). Debian's packages are not part of it: a cached medium is as old as its first build.
 */
export function mediumKey(): string {
  const hash = createHash('sha256');
  hash.update(git(['ls-files', '-s', '--', '.', ...notInMedium]));
  hash.update(git(['diff', '--binary', '--', '.', ...notInMedium]));
  const untracked = git(['ls-files', '--others', '--exclude-standard', '-z', '--', '.', ...notInMedium])
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .sort();
  for (const file of untracked) {
    if (!statSync(path.join(repo, file)).isFile()) continue;
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(path.join(repo, file)));
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

/**
 * A file of the system image the medium carries (its /usr/lib/cellar-installer/system-image.tar
 * in the live system's squashfs), taken out below `work` by xorriso, unsquashfs and tar.
 */
export function imageFile(iso: string, work: string, file: string): string {
  const dir = path.join(work, 'image-file');
  const run = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  rmSync(dir, { recursive: true, force: true });
  const squashfs = path.join(dir, 'filesystem.squashfs');
  run(['xorriso', '-osirrox', 'on', '-indev', iso, '-extract', '/live/filesystem.squashfs', squashfs]);
  try {
    run(['unsquashfs', '-q', '-n', '-d', path.join(dir, 'live'), squashfs, 'usr/lib/cellar-installer/system-image.tar']);
    return run(['tar', '-x', '-O', '-f', path.join(dir, 'live/usr/lib/cellar-installer/system-image.tar'), `./${file}`]).toString('utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

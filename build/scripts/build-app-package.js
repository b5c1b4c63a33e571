// Builds an app folder (manifest.json, icon.svg, frontend/, backend/) into <id>-<version>.serviceapp,
// the gzip-compressed tar the App Center takes. docs/apps.md describes the format.
//   node build/scripts/build-app-package.js examples/hello-app [out-folder]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { create } from 'tar';

/** Packs `folder` and answers the package's path. Entries are stored portably: no owners, no times of this machine. */
export async function buildAppPackage(folder, outDir = folder) {
  const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8'));
  const out = path.join(outDir, `${manifest.id}-${manifest.version}.serviceapp`);
  const entries = ['manifest.json', 'icon.svg', 'frontend', ...(manifest.backend ? ['backend'] : [])];
  await create({ gzip: true, file: out, cwd: folder, portable: true }, entries);
  return out;
}

if (process.argv[1] === import.meta.filename) {
  const [folder, outDir] = process.argv.slice(2);
  if (!folder) {
    process.stderr.write('usage: node build/scripts/build-app-package.js <app folder> [out folder]\n');
    process.exit(2);
  }
  process.stdout.write(`${await buildAppPackage(folder, outDir ?? folder)}\n`);
}

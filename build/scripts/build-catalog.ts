// Builds one branch of a store catalog: copies each app version's package, icons and screenshots
// into the repository, writes index.json (checked against the one schema of the format), signs it
// when given a key, and commits. docs/catalogs.md describes the format.
//   npx tsx build/scripts/build-catalog.ts <catalog.json> <repository> <branch> [<ed25519-private-key.pem> <key-id>]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAppPackage } from './build-app-package.js';
import { catalogFormat, catalogIndexSchema, type CatalogIndex, type CatalogVersion } from '../../shared/src/api/store/catalog-index.ts';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import { signDetached } from '../../daemon/src/core/signed-index.ts';

/** What a catalog holds: app folders (as build-app-package.js packs them) with their images, by app. */
export interface CatalogSource {
  name: string;
  apps: {
    source?: string | null;
    versions: {
      /** An app folder: manifest.json, icon.svg, frontend/, backend/. */
      folder: string;
      /** Screenshots by name (`home.png`) from files of this machine. */
      screenshots?: Record<string, string>;
      /** A package kept at an https address instead of the repository. */
      url?: string;
      publishedAt?: string;
    }[];
  }[];
}

export interface Signing {
  privateKeyPem: string;
  keyId: string;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function git(repo: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Catalog builder', '-c', 'user.email=catalog@localhost', '-c', 'core.hooksPath=/dev/null', '-C', repo, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** Writes the branch's files into `repo` (a git work tree, made when absent) and commits them; answers the commit. */
export async function buildCatalog(source: CatalogSource, repo: string, branch: string, signing?: Signing): Promise<string> {
  if (!existsSync(path.join(repo, '.git'))) {
    mkdirSync(repo, { recursive: true });
    git(repo, ['init', '--quiet', '--initial-branch', branch]);
  }
  const branches = git(repo, ['branch', '--list', branch]).trim();
  git(repo, branches ? ['checkout', '--quiet', branch] : ['checkout', '--quiet', '--orphan', branch]);
  for (const entry of readdirSync(repo)) if (entry !== '.git') rmSync(path.join(repo, entry), { recursive: true, force: true });
  const index: CatalogIndex = { format: catalogFormat, name: source.name, apps: [] };
  for (const app of source.apps) {
    const versions: CatalogVersion[] = [];
    let id = '';
    for (const v of app.versions) {
      const manifest = JSON.parse(readFileSync(path.join(v.folder, 'manifest.json'), 'utf8')) as AppManifest;
      id = manifest.id;
      const dir = path.join('apps', manifest.id, manifest.version);
      mkdirSync(path.join(repo, dir), { recursive: true });
      const built = await buildAppPackage(v.folder, path.join(repo, dir));
      const pkgPath = path.join(dir, path.basename(built));
      const pkg = { sha256: sha256(built), size: readFileSync(built).length, ...(v.url ? { url: v.url } : { path: pkgPath }) };
      if (v.url) rmSync(built);
      copyFileSync(path.join(v.folder, 'icon.svg'), path.join(repo, dir, 'icon.svg'));
      const icons = [{ name: 'icon.svg', path: path.join(dir, 'icon.svg'), sha256: sha256(path.join(repo, dir, 'icon.svg')) }];
      const screenshots = Object.entries(v.screenshots ?? {}).map(([name, file]) => {
        copyFileSync(file, path.join(repo, dir, name));
        return { name, path: path.join(dir, name), sha256: sha256(file) };
      });
      versions.push({ manifest, package: pkg, icons, screenshots, publishedAt: v.publishedAt ?? new Date().toISOString() });
    }
    index.apps.push({ id, source: app.source ?? null, versions });
  }
  const { error } = catalogIndexSchema.validate(index, { convert: false });
  if (error) throw new Error(`the index would not be valid: ${error.message}`);
  const bytes = Buffer.from(`${JSON.stringify(index, null, 2)}\n`);
  writeFileSync(path.join(repo, 'index.json'), bytes);
  if (signing) writeFileSync(path.join(repo, 'index.json.sig'), signDetached(bytes, signing.privateKeyPem, signing.keyId));
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '--allow-empty', '-m', `${source.name}: ${index.apps.length} apps`]);
  return git(repo, ['rev-parse', 'HEAD']).trim();
}

if (process.argv[1] === import.meta.filename) {
  const [spec, repo, branch, keyFile, keyId] = process.argv.slice(2);
  if (!spec || !repo || !branch || (keyFile && !keyId)) {
    process.stderr.write('usage: tsx build/scripts/build-catalog.ts <catalog.json> <repository> <branch> [<private-key.pem> <key-id>]\n');
    process.exit(2);
  }
  const source = JSON.parse(readFileSync(spec, 'utf8')) as CatalogSource;
  const signing = keyFile && keyId ? { privateKeyPem: readFileSync(keyFile, 'utf8'), keyId } : undefined;
  process.stdout.write(`${await buildCatalog(source, repo, branch, signing)}\n`);
}

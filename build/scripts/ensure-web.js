// Run by `npm start` before the daemon: builds the web desktop when its build is missing or
// older than any of its sources, so a fresh checkout serves the desktop without a manual step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');
const built = path.join(repo, 'daemon/public/index.html');
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/svelte.config.js', 'shared/src'].map((p) => path.join(repo, p));

/** The newest modification time under a file or folder. */
function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const changedAt = Math.max(...sources.map(newest));
if (builtAt >= changedAt) process.exit(0);

process.stdout.write(builtAt ? 'The web desktop changed since its last build: building it.\n' : 'Building the web desktop.\n');
const vite = path.join(repo, 'node_modules/vite/bin/vite.js');
const result = spawnSync(process.execPath, [vite, 'build', '--config', path.join(repo, 'web/vite.config.ts')], { cwd: repo, stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write('Building the web desktop failed; see above.\n');
  process.exit(result.status ?? 1);
}

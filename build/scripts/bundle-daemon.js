// Bundles the daemon's TypeScript into one ES module, daemon/dist/main.js, run by `npm start`
// and by a box. Starting from the bundle skips transpiling some two hundred modules on every
// start (about a second on a small box); packages stay in node_modules, so native ones (sqlite3,
// sharp) load as they are. Tests and `npm run dev` keep running the sources under tsx.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const repo = path.resolve(import.meta.dirname, '../..');
const outdir = path.join(repo, 'daemon/dist');

export const bundlePath = path.join(outdir, 'main.js');

/**
 * Node's options for the daemon, wherever it runs as a box runs it (the systemd unit, `npm start`,
 * the benchmarks; a test keeps the first two equal to this list). Starting a daemon with all its
 * areas grows V8's young generation to its 32 MB ceiling, which an idle daemon then keeps
 * resident; 4 MB semi-spaces hold a request's garbage as well (the GC's share of a signed-in
 * request stayed at 12 % in a CPU profile) and keep some 20 MB less resident on a small box.
 */
export const nodeFlags = ['--max-semi-space-size=4'];

/** Writes the bundle and its source map; throws with esbuild's messages when the sources do not build. */
export async function bundleDaemon() {
  await rm(outdir, { recursive: true, force: true });
  await build({
    // The user file worker is a program of its own: the daemon forks it once per user (host/share-fs).
    // So is replication's forced command: sshd starts it for a pairing's key (areas/replication).
    entryPoints: [
      path.join(repo, 'daemon/src/main.ts'),
      path.join(repo, 'daemon/src/host/share-fs/user-fs-worker.ts'),
      path.join(repo, 'daemon/src/areas/replication/receive-command.ts'),
    ],
    entryNames: '[name]',
    outdir,
    // Modules the daemon imports lazily (the OpenAPI generator, image rendering) stay separate
    // chunks, so the packages they import load on first use rather than at every start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    // The map stays beside the bundle for reading a stack trace (`node --enable-source-maps`);
    // loading it on every start would cost some 15 MB of resident memory.
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === import.meta.filename) {
  await bundleDaemon().catch(() => {
    process.stderr.write('Bundling the daemon failed; see above.\n');
    process.exit(1);
  });
}

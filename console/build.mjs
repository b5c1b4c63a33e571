// Builds the console for Electron: main and preload bundled by esbuild (electron stays external),
// the pages by Vite (console/vite.config.ts). Run from console/ (npm run build) or the root.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const here = import.meta.dirname;
const out = path.join(here, 'dist');
const common = { bundle: true, platform: 'node', target: 'node22', external: ['electron'], sourcemap: true, logLevel: 'warning' };
await build({
  ...common,
  entryPoints: [path.join(here, 'src/main/main.ts')],
  outfile: path.join(out, 'main/main.js'),
  format: 'esm',
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
// A sandboxed preload is CommonJS and may require electron only.
await build({ ...common, entryPoints: [path.join(here, 'src/preload/preload.ts')], outfile: path.join(out, 'preload/preload.cjs'), format: 'cjs' });
execFileSync(process.execPath, [path.join(here, '..', 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(here, 'vite.config.ts')], {
  stdio: 'inherit',
});

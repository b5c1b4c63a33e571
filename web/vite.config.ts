import path from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const repo = path.resolve(import.meta.dirname, '..');
// The daemon in development mode (npm run dev starts it beside this server), on its BOX_PORT.
const daemon = `http://127.0.0.1:${process.env.BOX_PORT || 7484}`;

export default defineConfig({
  root: import.meta.dirname,
  plugins: [svelte()],
  // The shared route tables declare joi schemas; the web only reads their paths (web/src/lib/inert-joi.ts).
  resolve: { alias: { joi: path.join(import.meta.dirname, 'src/lib/inert-joi.ts') } },
  build: {
    // The daemon serves this folder: /assets as immutable (names carry content hashes), index.html uncached.
    outDir: path.join(repo, 'daemon/public'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // The web imports the shared route tables and types from outside its root.
    fs: { allow: [repo] },
    // Host and Origin stay the dev server's, so the daemon's same-origin check on sign-in passes.
    proxy: {
      '/api': { target: daemon },
      '/socket.io': { target: daemon, ws: true },
    },
  },
});

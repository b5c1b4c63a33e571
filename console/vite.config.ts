import path from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const repo = path.resolve(import.meta.dirname, '..');

/** The console's pages: loaded from files by Electron (relative base), reusing the web desktop's components and styles. */
export default defineConfig({
  root: path.join(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [svelte({ configFile: path.join(repo, 'web/svelte.config.js') })],
  build: {
    outDir: process.env.CONSOLE_PAGES_DIR ? path.resolve(process.env.CONSOLE_PAGES_DIR) : path.join(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    target: 'es2022',
  },
  server: { fs: { allow: [repo] } },
});

import path from 'node:path';
import { startConsole } from './app.ts';

/** The entry esbuild bundles (console/build.mjs): the built pages and preload sit beside dist/main. */
const dist = path.join(import.meta.dirname, '..');
startConsole({ pagesDir: path.join(dist, 'renderer'), preload: path.join(dist, 'preload', 'preload.cjs') });

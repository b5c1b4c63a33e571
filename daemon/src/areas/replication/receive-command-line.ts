import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How sshd starts the forced command (receive-command.ts) for a pairing's key: with the node that
 * runs the daemon. Under tsx (tests, `npm run dev`) the source beside this file with tsx's loader;
 * in the bundle, the entry esbuild writes beside main.js (build/scripts/bundle-daemon.js).
 */
export function receiveCommandLine(pairingId: string, parent: string): string[] {
  return [process.execPath, ...program(), pairingId, parent];
}

function program(): string[] {
  if (import.meta.url.endsWith('.ts'))
    return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, fileURLToPath(new URL('./receive-command.ts', import.meta.url))];
  // This module lands in main.js or in one of its chunks, one folder down.
  const found = ['./receive-command.js', '../receive-command.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url))).find((f) => existsSync(f));
  if (!found) throw new Error('the replication receive command is missing beside the daemon bundle');
  return [found];
}

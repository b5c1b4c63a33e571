import { networkInterfaces } from 'node:os';
import { renameSync, writeFileSync } from 'node:fs';

/**
 * The medium's screen: the text is written to the console (standard output, which the medium's
 * tty shows) and to a file replaced atomically (a temporary file renamed over it), so whatever
 * shows the file never reads half a screen.
 */
export function writeScreen(file: string, text: string, toStdout: boolean): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o644 });
  renameSync(temp, file);
  if (toStdout) process.stdout.write(`\n${text}\n`);
}

/**
 * The addresses the daemon can be reached at: the one it listens on, or, listening on every
 * address, each address of the machine's cards but loopback and IPv6 link-local ones (those need
 * a zone the owner cannot type).
 */
export function reachableAddresses(listening: string): string[] {
  if (listening !== '0.0.0.0' && listening !== '::') return [listening];
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return all
    .filter((a) => !a.internal && !(a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80:')))
    .filter((a) => listening === '::' || a.family === 'IPv4')
    .map((a) => a.address);
}

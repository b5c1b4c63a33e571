import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * chrony's configuration on Debian: chrony.conf names the distribution's pool and reads every
 * `*.sources` file of sources.d. The box's own servers go in one file there; while it has any,
 * the distribution's pool and server lines are switched off with a marker, so the list replaces
 * the defaults instead of adding to them, and an empty list switches them back on.
 */
export const chronyConf = (root: string) => path.join(root, 'etc/chrony/chrony.conf');
export const cellarSources = (root: string) => path.join(root, 'etc/chrony/sources.d/cellar.sources');

const offMarker = '#cellar-off# ';
const sourceLine = /^(#cellar-off# )?(pool|server)\s+(\S+)/;

/** The servers of the box's sources file (empty when absent). */
export function parseSources(text: string): string[] {
  return text
    .split('\n')
    .map((line) => /^server\s+(\S+)/.exec(line.trim())?.[1])
    .filter((name): name is string => name !== undefined);
}

export function renderSources(servers: readonly string[]): string {
  return ['# Written by Cellar (System, Time); changes here are replaced.', ...servers.map((s) => `server ${s} iburst`), ''].join('\n');
}

/** The pool and server names of chrony.conf itself, switched off or not. */
export function distributionServers(conf: string): string[] {
  return conf
    .split('\n')
    .map((line) => sourceLine.exec(line)?.[3])
    .filter((name): name is string => name !== undefined);
}

/** chrony.conf with the distribution's sources switched on (`on`) or off. */
export function toggleDistributionSources(conf: string, on: boolean): string {
  return conf
    .split('\n')
    .map((line) => {
      const m = sourceLine.exec(line);
      if (!m) return line;
      const plain = m[1] ? line.slice(offMarker.length) : line;
      return on ? plain : offMarker + plain;
    })
    .join('\n');
}

async function readOr(file: string, fallback: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return fallback;
  }
}

export async function readServers(root: string): Promise<{ servers: string[]; defaults: string[] }> {
  return { servers: parseSources(await readOr(cellarSources(root), '')), defaults: distributionServers(await readOr(chronyConf(root), '')) };
}

async function replace(file: string, text: string): Promise<void> {
  await writeFile(`${file}.cellar-new`, text, { mode: 0o644 });
  await rename(`${file}.cellar-new`, file);
}

/** Writes the servers (none: the distribution's defaults). Leaves chrony.conf alone when chrony is not installed. */
export async function writeServers(root: string, servers: readonly string[]): Promise<void> {
  const conf = await readOr(chronyConf(root), '');
  if (servers.length === 0) await rm(cellarSources(root), { force: true });
  else {
    await mkdir(path.dirname(cellarSources(root)), { recursive: true });
    await replace(cellarSources(root), renderSources(servers));
  }
  if (conf === '') return;
  const next = toggleDistributionSources(conf, servers.length === 0);
  if (next !== conf) await replace(chronyConf(root), next);
}

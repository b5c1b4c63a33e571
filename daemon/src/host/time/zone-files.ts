import { mkdir, open, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { timeZonePattern } from '../../../../shared/src/api/system/time.ts';

/** The tz database and the box's zone files under `root` ("/" on a box, a folder in tests). */
export const zoneinfoDir = (root: string) => path.join(root, 'usr/share/zoneinfo');
const localtime = (root: string) => path.join(root, 'etc/localtime');
const timezoneFile = (root: string) => path.join(root, 'etc/timezone');

/** The box's zone: /etc/localtime's link target below zoneinfo, else /etc/timezone, else UTC. */
export async function readZone(root: string): Promise<string> {
  try {
    const target = await readlink(localtime(root));
    const m = /zoneinfo\/(.+)$/.exec(target);
    if (m?.[1] && timeZonePattern.test(m[1])) return m[1];
  } catch {
    // Not a link (a copied file) or absent: /etc/timezone tells.
  }
  try {
    const named = (await readFile(timezoneFile(root), 'utf8')).trim();
    if (timeZonePattern.test(named)) return named;
  } catch {
    // Neither file: glibc's default applies.
  }
  return 'UTC';
}

/** Whether the tz database has the zone as a compiled zone file (TZif). */
export async function zoneExists(root: string, zone: string): Promise<boolean> {
  if (!timeZonePattern.test(zone)) return false;
  try {
    const file = path.join(zoneinfoDir(root), zone);
    if (!(await stat(file)).isFile()) return false;
    const head = Buffer.alloc(4);
    const handle = await open(file, 'r');
    try {
      await handle.read(head, 0, 4, 0);
    } finally {
      await handle.close();
    }
    return head.toString('latin1') === 'TZif';
  } catch {
    return false;
  }
}

/**
 * Every zone the tz database names (`Z` lines of tzdata.zi), with UTC, sorted; backward
 * links (US/Eastern) are left out of the list but still accepted when set.
 */
export async function listZones(root: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path.join(zoneinfoDir(root), 'tzdata.zi'), 'utf8');
  } catch {
    return ['UTC'];
  }
  const zones = new Set(['UTC']);
  for (const line of text.split('\n')) {
    const m = /^Z (\S+)/.exec(line);
    if (m?.[1] && timeZonePattern.test(m[1])) zones.add(m[1]);
  }
  return [...zones].sort();
}

/**
 * Points /etc/localtime at the zone (relative, as systemd writes it, so it also resolves inside
 * a root folder) and writes /etc/timezone. The link is swapped in with a rename: never absent.
 */
export async function writeZone(root: string, zone: string): Promise<void> {
  await mkdir(path.join(root, 'etc'), { recursive: true });
  const link = localtime(root);
  const temp = `${link}.cellar-new`;
  await rm(temp, { force: true });
  await symlink(path.join('..', 'usr/share/zoneinfo', zone), temp);
  await rename(temp, link);
  const named = timezoneFile(root);
  await writeFile(`${named}.cellar-new`, `${zone}\n`, { mode: 0o644 });
  await rename(`${named}.cellar-new`, named);
}

/** What writeZone changes, for the development log. */
export function zoneEffects(root: string, zone: string): { link: string; target: string; file: string } {
  return { link: localtime(root), target: path.join('..', 'usr/share/zoneinfo', zone), file: timezoneFile(root) };
}

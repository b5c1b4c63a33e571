import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const chronyInstall = 'apt-get install -y --no-install-recommends chrony';

/**
 * A root folder for the System area's time effects: the machine's tz database linked in, and
 * Debian's chrony.conf copied with its own paths pointing into the folder, so the daemon
 * writes there and `chronyd -p` parses the result. Needs chrony installed (fails naming how).
 */
export function makeTimeRoot(): string {
  const debianConf = '/etc/chrony/chrony.conf';
  if (!existsSync(debianConf)) throw new Error(`chrony is not installed: ${chronyInstall}`);
  const root = mkdtempSync(path.join(tmpdir(), 'cellar-time-root-'));
  mkdirSync(path.join(root, 'usr/share'), { recursive: true });
  symlinkSync('/usr/share/zoneinfo', path.join(root, 'usr/share/zoneinfo'));
  mkdirSync(path.join(root, 'etc/chrony/sources.d'), { recursive: true });
  writeFileSync(path.join(root, 'etc/chrony/chrony.conf'), readFileSync(debianConf, 'utf8').replaceAll('/etc/chrony', path.join(root, 'etc/chrony')));
  return root;
}

/** chrony's own parse of a configuration file (`chronyd -p`): the directives it read, or it throws on an error. */
export function chronyParse(conf: string): string {
  return execFileSync('chronyd', ['-p', '-f', conf], { encoding: 'utf8' });
}

/** What `date` says of an instant in a zone given as TZ (a name, or `:<file>`). */
export function dateIn(tz: string, epochSeconds: number): string {
  return execFileSync('date', ['-d', `@${epochSeconds}`, '+%F %T %Z %z'], { encoding: 'utf8', env: { PATH: process.env.PATH, TZ: tz } }).trim();
}

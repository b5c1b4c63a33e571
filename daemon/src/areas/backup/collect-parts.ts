import { backupPartNames } from '../../../../shared/src/api/backup/backup.ts';
import type { Area } from '../area.ts';
import type { BackupPart } from '../backup-part.ts';

/**
 * The backup parts the areas carry, in the format's order (backupPartNames): written, inspected
 * and restored in it, whoever built them and in whatever order the areas were built. A part
 * listed before a part it names in `after`, or two parts of one name, stop the daemon's build.
 */
export function collectParts(areas: readonly Area[]): BackupPart[] {
  const parts = areas.flatMap((area) => ([] as BackupPart[]).concat(area.backupPart ?? []));
  const rank = (name: string) => backupPartNames.indexOf(name as (typeof backupPartNames)[number]);
  const names = new Set<string>();
  for (const part of parts) {
    if (names.has(part.name)) throw new Error(`two areas carry the backup part ${part.name}`);
    names.add(part.name);
    for (const before of part.after ?? [])
      if (rank(before) >= rank(part.name)) throw new Error(`the backup part ${part.name} points at ${before}, which backupPartNames lists after it`);
  }
  return parts.sort((a, b) => rank(a.name) - rank(b.name));
}

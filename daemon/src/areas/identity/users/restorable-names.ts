import { ProblemError } from '../../../core/problem-error.ts';
import { reservedNames } from './host-effects.ts';

/** The ids the box gives its own users and groups; an account outside them is the system's or an app's. */
export const uidRange = { min: 20000, max: 29999 } as const;
export const gidRange = { min: 30000, max: 39999 } as const;

/**
 * A user or group of a backup may take only a name creating it by hand would take: none of the
 * names the box keeps for the system, and none a host account holds outside the box's range (on
 * a box `sshd` or `sudo` exist; a restore would change their ids, passwords and members).
 * An account in the range is one of the box's own, which the restore takes over.
 */
export async function assertRestorableName(
  kind: 'user' | 'group',
  name: string,
  range: { min: number; max: number },
  hostId: (name: string) => Promise<number | null>,
): Promise<void> {
  if (reservedNames.has(name)) throw new ProblemError('backup.account.reserved', { kind, name });
  const id = await hostId(name);
  if (id !== null && (id < range.min || id > range.max)) throw new ProblemError('backup.account.reserved', { kind, name });
}

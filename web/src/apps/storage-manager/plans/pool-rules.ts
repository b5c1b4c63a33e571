import type { PoolLayout } from '../../../../../shared/src/api/storage/storage.ts';
import type { MessageKey } from '../../../lib/i18n/messages.ts';

export const layouts: readonly PoolLayout[] = ['mirror', 'raidz1', 'raidz2', 'stripe'];

/** As the daemon's plan builder counts them (plan-builders.ts); the box answers storage.layout.invalid otherwise. */
export const minDisks: Record<PoolLayout, number> = { stripe: 1, mirror: 2, raidz1: 3, raidz2: 4 };

const reserved = new Set(['mirror', 'raidz', 'raidz1', 'raidz2', 'raidz3', 'spare', 'log', 'cache', 'draid']);

/** Why ZFS would refuse a pool name (the same rule as the request schema), or null. */
export function poolNameProblem(name: string): MessageKey | null {
  if (!/^[A-Za-z]/.test(name)) return 'storage.create.name.start';
  if (!/^[A-Za-z][A-Za-z0-9_.:-]{0,62}$/.test(name)) return 'storage.create.name.chars';
  if (reserved.has(name)) return 'storage.create.name.reserved';
  return null;
}

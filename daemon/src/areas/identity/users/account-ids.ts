import type { Transaction } from 'sequelize';
import { ProblemError } from '../../../core/problem-error.ts';
import type { AccountIdRow } from './group.model.ts';

const ranges = {
  uid: { last: 29999, exhausted: 'users.uid.exhausted' },
  gid: { last: 39999, exhausted: 'groups.gid.exhausted' },
} as const;

/**
 * Hands out the next uid (20000-29999) or gid (30000-39999) above the highest ever handed
 * out. The high-water mark never goes down, so an id of a deleted account (whose files may
 * still carry it) is never given to someone else.
 */
export async function nextAccountId(rows: typeof AccountIdRow, kind: 'uid' | 'gid', transaction: Transaction): Promise<number> {
  const row = await rows.findByPk(kind, { transaction });
  if (!row) throw new Error(`account_ids has no ${kind} row`);
  const next = row.last + 1;
  if (next > ranges[kind].last) throw new ProblemError(ranges[kind].exhausted);
  await row.update({ last: next }, { transaction });
  return next;
}

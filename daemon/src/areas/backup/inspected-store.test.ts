import { expect } from 'chai';
import type { BackupSummary } from '../../../../shared/src/api/backup/backup.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { InspectedStore, keptPerOwner } from './inspected-store.ts';

describe('inspected backups', () => {
  let now = 0;
  const store = () => new InspectedStore({ now: () => now });
  const keep = (s: InspectedStore, ownerId: number) => s.keep(ownerId, (backupId) => ({ summary: { backupId } as unknown as BackupSummary, parts: new Map() }));
  const idOf = (k: ReturnType<typeof keep>) => (k.summary as unknown as { backupId: string }).backupId;

  beforeEach(() => (now = 1_000_000));

  it('keeps a few per administrator: a further inspect lets the oldest go, not another administrator’s', () => {
    const s = store();
    const other = idOf(keep(s, 2));
    const mine = Array.from({ length: keptPerOwner + 2 }, () => idOf(keep(s, 1)));
    const stillKept = (id: string, owner: number) => {
      try {
        return s.get(id, owner) !== undefined;
      } catch (err) {
        if (err instanceof ProblemError && err.code === 'backup.inspected.not_found') return false;
        throw err;
      }
    };
    expect(mine.map((id) => stillKept(id, 1))).to.deep.equal([false, false, ...Array<boolean>(keptPerOwner).fill(true)]);
    expect(stillKept(other, 2)).to.equal(true);
  });

  it('forgets one after 15 minutes and never shows it to another administrator', () => {
    const s = store();
    const id = idOf(keep(s, 1));
    expect(() => s.get(id, 2)).to.throw(ProblemError);
    now += 15 * 60_000;
    expect(() => s.get(id, 1)).to.throw(ProblemError);
  });
});

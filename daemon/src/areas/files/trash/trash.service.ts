import { Op } from 'sequelize';
import type { Job } from '../../../../../shared/src/api/jobs/jobs.ts';
import type { GrantLevel } from '../../../../../shared/src/api/shares/shares.ts';
import type { TrashItem, TrashItemsRequest, TrashPage, TrashQuery } from '../../../../../shared/src/api/files/trash.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { readyShareBin } from './trash-bin.ts';
import type { TrashRow } from './trash.model.ts';
import type { TrashJobParams, TrashJobKind } from './trash.jobs.ts';

export interface TrashDeps {
  rows: typeof TrashRow;
  /** The share when the caller holds `need` on it (throws fs.share.not_found / read_only). */
  share(principal: Principal, shareId: number, need: GrantLevel): Promise<{ trashRetentionDays: number; hostPath: string }>;
  enqueue(kind: TrashJobKind, params: TrashJobParams, userId: number): Promise<Job>;
}

const dayMs = 24 * 60 * 60 * 1000;
const defaultLimit = 100;

interface Cursor {
  deletedAt: string;
  id: number;
}

function encodeCursor(row: TrashRow): string {
  return Buffer.from(JSON.stringify([row.deletedAt, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isSafeInteger(value[1]))
      return { deletedAt: value[0], id: value[1] as number };
  } catch {
    // Falls through to the refusal below.
  }
  throw new ProblemError('fs.cursor.invalid');
}

export function toTrashItem(row: TrashRow, retentionDays: number): TrashItem {
  return {
    id: row.id,
    name: row.originalPath.split('/').pop() as string,
    originalPath: row.originalPath,
    type: row.type,
    size: row.size,
    deletedAt: row.deletedAt,
    deletedBy: row.deletedByName === null ? null : { userId: row.deletedById, username: row.deletedByName },
    expiresAt: retentionDays === 0 ? null : new Date(Date.parse(row.deletedAt) + retentionDays * dayMs).toISOString(),
  };
}

/** The recycle bin of each share: listing needs read access; restore, delete and empty need write access and run as jobs. */
export class TrashService {
  constructor(private readonly deps: TrashDeps) {}

  async list(principal: Principal, shareId: number, q: TrashQuery): Promise<TrashPage> {
    const share = await this.deps.share(principal, shareId, 'read');
    const limit = q.limit ?? defaultLimit;
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    // Newest first; (deletedAt, id) orders ties, so a cursor never skips or repeats an item.
    const older = after ? { [Op.or]: [{ deletedAt: { [Op.lt]: after.deletedAt } }, { deletedAt: after.deletedAt, id: { [Op.lt]: after.id } }] } : {};
    const rows = await this.deps.rows.findAll({
      where: { shareId, ...older },
      order: [
        ['deletedAt', 'DESC'],
        ['id', 'DESC'],
      ],
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => toTrashItem(row, share.trashRetentionDays)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1] as TrashRow) : null,
      retentionDays: share.trashRetentionDays,
    };
  }

  async restore(principal: Principal, shareId: number, body: TrashItemsRequest): Promise<Job> {
    await this.requireItems(principal, shareId, body.ids);
    return this.deps.enqueue('files.trash.restore', { shareId, ids: body.ids, onConflict: body.onConflict ?? 'rename' }, principal.id);
  }

  async remove(principal: Principal, shareId: number, body: TrashItemsRequest): Promise<Job> {
    await this.requireItems(principal, shareId, body.ids);
    return this.deps.enqueue('files.trash.delete', { shareId, ids: body.ids, onConflict: 'fail' }, principal.id);
  }

  async empty(principal: Principal, shareId: number): Promise<Job> {
    await this.usableBin(principal, shareId);
    // What is in the bin now: an entry deleted while the job waits is not emptied unasked.
    const ids = (await this.deps.rows.findAll({ where: { shareId }, attributes: ['id'] })).map((r) => r.id);
    return this.deps.enqueue('files.trash.empty', { shareId, ids, onConflict: 'fail' }, principal.id);
  }

  /** Write access, and a bin that can be used now: an unusable one is refused at once rather than by a failing job. */
  private async usableBin(principal: Principal, shareId: number): Promise<void> {
    const share = await this.deps.share(principal, shareId, 'readWrite');
    await readyShareBin(share.hostPath);
  }

  private async requireItems(principal: Principal, shareId: number, ids: number[]): Promise<void> {
    await this.usableBin(principal, shareId);
    const found = new Set((await this.deps.rows.findAll({ where: { shareId, id: { [Op.in]: ids } }, attributes: ['id'] })).map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new ProblemError('fs.trash.item_not_found', { ids: missing });
  }
}

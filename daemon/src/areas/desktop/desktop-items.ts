import type { DesktopItem, DesktopItemChange, NewDesktopItem } from '../../../../shared/src/api/desktop/desktop.ts';
import type { DesktopEvent } from '../../../../shared/src/topics.ts';
import { isoAt, type Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { UniqueConstraintError } from 'sequelize';
import type { DesktopItemRow, DesktopSeededRow } from './desktop.model.ts';

/** Enough for any real desktop; keeps one account from filling the database. */
export const maxDesktopItems = 500;

export interface DesktopItemsDeps {
  items: typeof DesktopItemRow;
  seeded: typeof DesktopSeededRow;
  clock: Clock;
  /** Told of every committed change, for the user's other tabs and devices. */
  changed: (userId: number, event: DesktopEvent) => void;
}

function toItem(row: DesktopItemRow): DesktopItem {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    appId: row.appId,
    shareId: row.shareId,
    path: row.path,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Fields of the other kind make no sense on an item (an app shortcut has no path). */
function checkFieldsFit(kind: DesktopItem['kind'], change: DesktopItemChange): void {
  const foreign = kind === 'app' ? (['shareId', 'path'] as const) : (['appId'] as const);
  const errors = foreign
    .filter((field) => change[field] !== undefined)
    .map((field) => ({
      path: field,
      message: `a ${kind} item has no ${field}`,
    }));
  if (errors.length) throw new ProblemError('desktop.item.invalid', { errors }, { detail: errors.map((e) => e.message).join('; ') });
}

/** Desktop shortcuts of a user: the same on every device, each with a version for If-Match. */
export class DesktopItems {
  constructor(private readonly deps: DesktopItemsDeps) {}

  async list(userId: number): Promise<DesktopItem[]> {
    const rows = await this.deps.items.findAll({
      where: { userId },
      order: [['id', 'ASC']],
    });
    return rows.map(toItem);
  }

  /**
   * A new user's first desktop shows the apps they may open (DSM does), still removable: done once
   * per user. The row is claimed first, so two tabs loading at once seed it once.
   */
  async seedOnce(userId: number, apps: readonly { id: string; label: string }[]): Promise<void> {
    try {
      await this.deps.seeded.create({ userId, seededAt: isoAt(this.deps.clock) });
    } catch (err) {
      if (err instanceof UniqueConstraintError) return;
      throw err;
    }
    for (const app of apps) await this.create(userId, { kind: 'app', label: app.label, appId: app.id });
  }

  async create(userId: number, item: NewDesktopItem): Promise<DesktopItem> {
    if ((await this.deps.items.count({ where: { userId } })) >= maxDesktopItems)
      throw new ProblemError('desktop.items.too_many', {
        limit: maxDesktopItems,
      });
    const now = isoAt(this.deps.clock);
    const row = await this.deps.items.create({
      userId,
      kind: item.kind,
      label: item.label,
      appId: item.kind === 'app' ? (item.appId ?? null) : null,
      shareId: item.kind === 'folder' ? (item.shareId ?? null) : null,
      path: item.kind === 'folder' ? (item.path ?? null) : null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    const created = toItem(row);
    this.deps.changed(userId, { type: 'item.created', data: created });
    return created;
  }

  /**
   * Applies a change if the item still has `expected` (null: whatever it has). The write
   * itself is conditional on the version read, so two racing saves cannot both win.
   */
  async update(userId: number, id: number, change: DesktopItemChange, expected: number | null): Promise<DesktopItem> {
    for (;;) {
      const row = await this.deps.items.findOne({ where: { id, userId } });
      if (!row) throw new ProblemError('desktop.item.not_found');
      if (expected !== null && expected !== row.version)
        throw new ProblemError('desktop.item.conflict', {
          version: row.version,
        });
      checkFieldsFit(row.kind, change);
      const fields = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
      const [count] = await this.deps.items.update(
        {
          ...fields,
          version: row.version + 1,
          updatedAt: isoAt(this.deps.clock),
        },
        { where: { id, userId, version: row.version } },
      );
      if (count === 1) {
        const changed = toItem((await this.deps.items.findByPk(id)) as DesktopItemRow);
        this.deps.changed(userId, { type: 'item.changed', data: changed });
        return changed;
      }
      // Changed between read and write: look again (a conditional change then conflicts).
    }
  }

  /** Idempotent: removing an absent (or someone else's) item changes nothing and is no error. */
  async remove(userId: number, id: number): Promise<void> {
    const removed = await this.deps.items.destroy({ where: { id, userId } });
    if (removed > 0) this.deps.changed(userId, { type: 'item.deleted', data: { id } });
  }
}

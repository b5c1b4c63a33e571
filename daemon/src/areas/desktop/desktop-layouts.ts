import { UniqueConstraintError } from 'sequelize';
import type { DeviceLayout, SavedLayout } from '../../../../shared/src/api/desktop/desktop.ts';
import type { DesktopEvent } from '../../../../shared/src/topics.ts';
import { isoAt, type Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { DesktopLayoutRow } from './desktop.model.ts';

export interface DesktopLayoutsDeps {
  layouts: typeof DesktopLayoutRow;
  clock: Clock;
  /** Told of every saved layout, so other tabs of the same device read it again. */
  changed: (userId: number, event: DesktopEvent) => void;
}

/** What a device's layout is before its first save: nothing, at version 0. */
export interface CurrentLayout {
  layout: unknown;
  version: number;
}

function toDeviceLayout(row: DesktopLayoutRow): DeviceLayout {
  return {
    deviceId: row.deviceId,
    layout: JSON.parse(row.layout) as unknown,
    version: row.version,
    userAgent: row.userAgent,
    updatedAt: row.updatedAt,
  };
}

/** Keeps a browser's description short; it only helps people tell their devices apart. */
function shortAgent(userAgent: string | undefined): string | null {
  return userAgent ? userAgent.slice(0, 300) : null;
}

/** One layout per device of a user, each with a version for If-Match. */
export class DesktopLayouts {
  constructor(private readonly deps: DesktopLayoutsDeps) {}

  async current(userId: number, deviceId: string): Promise<CurrentLayout> {
    const row = await this.deps.layouts.findOne({
      where: { userId, deviceId },
    });
    return row ? { layout: JSON.parse(row.layout) as unknown, version: row.version } : { layout: null, version: 0 };
  }

  async devices(userId: number): Promise<DeviceLayout[]> {
    const rows = await this.deps.layouts.findAll({
      where: { userId },
      order: [
        ['updatedAt', 'DESC'],
        ['id', 'DESC'],
      ],
    });
    return rows.map(toDeviceLayout);
  }

  /**
   * Saves a device's layout if it still has `expected` (null: unconditional; 0: only if the
   * device has none yet) and answers the new version. Writes are conditional on the version
   * read, and the first save on the unique (user, device) key, so racing saves cannot both win.
   */
  async save(userId: number, deviceId: string, layout: unknown, expected: number | null, userAgent?: string): Promise<number> {
    const version = await this.write(userId, deviceId, layout, expected, userAgent);
    this.deps.changed(userId, { type: 'layout.saved', data: { deviceId, version } });
    return version;
  }

  private async write(userId: number, deviceId: string, layout: unknown, expected: number | null, userAgent?: string): Promise<number> {
    const text = JSON.stringify(layout);
    for (;;) {
      const row = await this.deps.layouts.findOne({
        where: { userId, deviceId },
      });
      const version = row?.version ?? 0;
      if (expected !== null && expected !== version) throw new ProblemError('desktop.layout.conflict', { version });
      const updatedAt = isoAt(this.deps.clock);
      if (!row) {
        try {
          await this.deps.layouts.create({
            userId,
            deviceId,
            layout: text,
            version: 1,
            userAgent: shortAgent(userAgent),
            updatedAt,
          });
          return 1;
        } catch (err) {
          // Another save made the first layout meanwhile: decide again against it.
          if (err instanceof UniqueConstraintError) continue;
          throw err;
        }
      }
      const [count] = await this.deps.layouts.update(
        {
          layout: text,
          version: version + 1,
          userAgent: shortAgent(userAgent),
          updatedAt,
        },
        { where: { id: row.id, version } },
      );
      if (count === 1) return version + 1;
    }
  }

  /** Replaces the target device's layout with the source device's one. */
  async copy(userId: number, fromDeviceId: string, toDeviceId: string, userAgent?: string): Promise<SavedLayout> {
    const source = await this.deps.layouts.findOne({
      where: { userId, deviceId: fromDeviceId },
    });
    if (!source)
      throw new ProblemError('desktop.layout.not_found', {
        deviceId: fromDeviceId,
      });
    const version = await this.save(userId, toDeviceId, JSON.parse(source.layout) as unknown, null, userAgent);
    return { deviceId: toDeviceId, version };
  }
}

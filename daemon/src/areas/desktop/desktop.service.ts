import { UniqueConstraintError } from 'sequelize';
import {
  defaultAppearance,
  type Appearance,
  type DesktopApp,
  type DesktopState,
  type WindowPreference,
  type WindowPreferenceRequest,
} from '../../../../shared/src/api/desktop.ts';
import { coreAppsFor, type AppCaller } from '../../../../shared/src/apps.ts';
import { isoAt, type Clock } from '../../core/clock.ts';
import type { DesktopModels, WindowPreferenceRow } from './desktop.model.ts';
import { DesktopItems } from './desktop-items.ts';
import { DesktopLayouts } from './desktop-layouts.ts';

export interface DesktopDeps {
  models: DesktopModels;
  clock: Clock;
}

/** The signed-in caller as the desktop needs it: who, and which apps they may open. */
export interface DesktopCaller extends AppCaller {
  id: number;
}

function toPreference(row: WindowPreferenceRow): WindowPreference {
  return {
    appId: row.appId,
    width: row.width,
    height: row.height,
    x: row.x,
    y: row.y,
    maximised: row.maximised,
    updatedAt: row.updatedAt,
  };
}

/** Per-user desktop state: items, one layout per device, appearance and window preferences. */
export class DesktopService {
  readonly items: DesktopItems;
  readonly layouts: DesktopLayouts;

  constructor(private readonly deps: DesktopDeps) {
    this.items = new DesktopItems({
      items: deps.models.items,
      clock: deps.clock,
    });
    this.layouts = new DesktopLayouts({
      layouts: deps.models.layouts,
      clock: deps.clock,
    });
  }

  async state(caller: DesktopCaller, deviceId: string): Promise<DesktopState> {
    const [appearance, layout, items, windowPreferences] = await Promise.all([
      this.appearance(caller.id),
      this.layouts.current(caller.id, deviceId),
      this.items.list(caller.id),
      this.windowPreferences(caller.id),
    ]);
    // Read from the caller's rights of this request, so a grant change shows at the next load.
    const apps: DesktopApp[] = coreAppsFor(caller).map(({ id, icon, title, defaultWindow }) => ({
      id,
      icon,
      title: { ...title },
      defaultWindow: { ...defaultWindow },
    }));
    return {
      deviceId,
      appearance,
      layout: layout.layout,
      layoutVersion: layout.version,
      items,
      windowPreferences,
      apps,
    };
  }

  async appearance(userId: number): Promise<Appearance> {
    const row = await this.deps.models.appearances.findByPk(userId);
    return row ? { accentColor: row.accentColor, wallpaper: row.wallpaper } : { ...defaultAppearance };
  }

  /** One appearance per user: every device shows it. */
  async setAppearance(userId: number, appearance: Appearance): Promise<void> {
    await this.deps.models.appearances.upsert({
      userId,
      accentColor: appearance.accentColor.toLowerCase(),
      wallpaper: appearance.wallpaper,
      updatedAt: isoAt(this.deps.clock),
    });
  }

  async windowPreferences(userId: number): Promise<WindowPreference[]> {
    const rows = await this.deps.models.windowPreferences.findAll({
      where: { userId },
      order: [['appId', 'ASC']],
    });
    return rows.map(toPreference);
  }

  /** Replaces the window preference of one app (last save wins: windows have no versions). */
  async setWindowPreference(userId: number, appId: string, preference: WindowPreferenceRequest): Promise<void> {
    const fields = { ...preference, updatedAt: isoAt(this.deps.clock) };
    const rows = this.deps.models.windowPreferences;
    const [count] = await rows.update(fields, { where: { userId, appId } });
    if (count > 0) return;
    try {
      await rows.create({ userId, appId, ...fields });
    } catch (err) {
      // A racing first save of the same app made the row: this save still wins.
      if (!(err instanceof UniqueConstraintError)) throw err;
      await rows.update(fields, { where: { userId, appId } });
    }
  }
}

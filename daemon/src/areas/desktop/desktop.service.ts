import { UniqueConstraintError } from 'sequelize';
import {
  customWallpaper,
  defaultAppearance,
  type Appearance,
  type DesktopApp,
  type DesktopState,
  type WindowPreference,
  type WindowPreferenceRequest,
} from '../../../../shared/src/api/desktop/desktop.ts';
import { coreAppsFor, type AppCaller } from '../../../../shared/src/apps.ts';
import type { Language } from '../../../../shared/src/api/system/system.ts';
import type { DesktopEvent, DesktopSnapshot } from '../../../../shared/src/topics.ts';
import { isoAt, type Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { DesktopModels, WindowPreferenceRow } from './desktop.model.ts';
import { DesktopItems } from './desktop-items.ts';
import { DesktopLayouts } from './desktop-layouts.ts';

export interface DesktopDeps {
  models: DesktopModels;
  clock: Clock;
  /** Sends a committed change to the user's `desktop` topic (their other tabs and devices). */
  publish: (userId: number, event: DesktopEvent) => void;
  /** Version of the user's uploaded wallpaper, null without one (desktop-wallpaper.ts). */
  wallpaperVersion: (userId: number) => Promise<string | null>;
  /** Installed apps the caller may use, as the start menu shows them (the apps area). */
  installedApps?: (caller: AppCaller) => Promise<DesktopApp[]>;
}

/** The signed-in caller as the desktop needs it: who, and which apps they may open. */
export interface DesktopCaller extends AppCaller {
  id: number;
  /** Labels of the first desktop's icons are in the user's language. */
  language: Language;
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
      seeded: deps.models.seeded,
      clock: deps.clock,
      changed: deps.publish,
    });
    this.layouts = new DesktopLayouts({
      layouts: deps.models.layouts,
      clock: deps.clock,
      changed: deps.publish,
    });
  }

  async state(caller: DesktopCaller, deviceId: string): Promise<DesktopState> {
    const mayOpen = coreAppsFor(caller);
    await this.items.seedOnce(
      caller.id,
      mayOpen.map((app) => ({ id: app.id, label: app.title[caller.language] })),
    );
    const [appearance, layout, items, windowPreferences] = await Promise.all([
      this.appearance(caller.id),
      this.layouts.current(caller.id, deviceId),
      this.items.list(caller.id),
      this.windowPreferences(caller.id),
    ]);
    // Read from the caller's rights of this request, so a grant change shows at the next load.
    const apps: DesktopApp[] = [
      ...mayOpen.map(({ id, icon, title, defaultWindow }) => ({
        id,
        icon,
        title: { ...title },
        defaultWindow: { ...defaultWindow },
        frontend: null,
        iconUrl: null,
      })),
      ...((await this.deps.installedApps?.(caller)) ?? []),
    ];
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

  /** The `desktop` topic's snapshot: everything its events change, for every device of the user. */
  async snapshot(userId: number): Promise<DesktopSnapshot> {
    const [appearance, items, windowPreferences, devices] = await Promise.all([
      this.appearance(userId),
      this.items.list(userId),
      this.windowPreferences(userId),
      this.layouts.devices(userId),
    ]);
    return { appearance, items, windowPreferences, layoutVersions: Object.fromEntries(devices.map((d) => [d.deviceId, d.version])) };
  }

  async appearance(userId: number): Promise<Appearance> {
    const [row, wallpaperVersion] = await Promise.all([this.deps.models.appearances.findByPk(userId), this.deps.wallpaperVersion(userId)]);
    const appearance: Appearance = row ? { accentColor: row.accentColor, wallpaper: row.wallpaper } : { ...defaultAppearance };
    return wallpaperVersion === null ? appearance : { ...appearance, wallpaperVersion };
  }

  /** One appearance per user: every device shows it. */
  async setAppearance(userId: number, appearance: Appearance): Promise<Appearance> {
    // Uploading and removing a wallpaper change the appearance through here too (desktop-wallpaper.ts).
    if (appearance.wallpaper === customWallpaper && (await this.deps.wallpaperVersion(userId)) === null) throw new ProblemError('desktop.wallpaper.missing');
    await this.deps.models.appearances.upsert({
      userId,
      accentColor: appearance.accentColor.toLowerCase(),
      wallpaper: appearance.wallpaper,
      updatedAt: isoAt(this.deps.clock),
    });
    // Read back, so every tab gets the appearance exactly as stored (and as GET /api/desktop answers it).
    const saved = await this.appearance(userId);
    this.deps.publish(userId, { type: 'appearance.changed', data: saved });
    return saved;
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
    if (count === 0) {
      try {
        await rows.create({ userId, appId, ...fields });
      } catch (err) {
        // A racing first save of the same app made the row: this save still wins.
        if (!(err instanceof UniqueConstraintError)) throw err;
        await rows.update(fields, { where: { userId, appId } });
      }
    }
    this.deps.publish(userId, { type: 'window.changed', data: { appId, ...fields } });
  }
}

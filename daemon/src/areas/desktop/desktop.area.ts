import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { TopicsHub } from '../../core/topics/topics-hub.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { initDesktopModels } from './desktop.model.ts';
import { desktopHandlers } from './desktop.routes.ts';
import { DesktopService, type DesktopDeps } from './desktop.service.ts';
import { desktopTopic } from './desktop.topics.ts';
import { DesktopWallpaper } from './desktop-wallpaper.ts';
import { WallpaperStore } from './wallpaper-store.ts';

export interface DesktopAreaDeps {
  db: Sequelize;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  topics: TopicsHub;
  /** Installed apps the caller may open (the apps area, built later). */
  installedApps: NonNullable<DesktopDeps['installedApps']>;
}

/** Each user's desktop (layouts, appearance, wallpaper), with its topic. */
export async function createDesktopArea(deps: DesktopAreaDeps) {
  const wallpaperStore = new WallpaperStore(path.join(deps.dataDir, 'wallpapers'));
  await wallpaperStore.sweep();
  const desktop = new DesktopService({
    models: initDesktopModels(deps.db),
    clock: deps.clock,
    publish: (userId, event) => deps.topics.publishToUser(userId, topicName.desktop, event.type, event.data),
    wallpaperVersion: (userId) => wallpaperStore.version(userId),
    installedApps: deps.installedApps,
  });
  const wallpaper = new DesktopWallpaper({
    store: wallpaperStore,
    appearance: { get: (userId) => desktop.appearance(userId), set: (userId, appearance) => desktop.setAppearance(userId, appearance) },
    logger: deps.logger,
  });
  return defineArea({
    name: 'desktop',
    topics: [desktopTopic(desktop)],
    routes: [tableRoutes(api.desktop, desktopHandlers(desktop, wallpaper))],
    desktop,
    wallpaper,
  });
}

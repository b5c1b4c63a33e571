import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import type { Scheduler } from '../../../core/scheduler.ts';
import type { TopicPublisher } from '../../../core/topics/topic-provider.ts';
import { api } from '../../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../../http/area-routes.ts';
import { defineArea } from '../../area.ts';
import type { SharesService } from '../../shares/shares.service.ts';
import { ThumbnailCache } from './thumbnail-cache.ts';
import { initThumbnailModel } from './thumbnail.model.ts';
import type { RenderLimits } from './thumbnail-render.ts';
import { sweepThumbnails } from './thumbnail-sweep.ts';
import { thumbnailsHandlers } from './thumbnails.routes.ts';
import { ThumbnailsService } from './thumbnails.service.ts';
import { thumbnailsTopic } from './thumbnails.topics.ts';

export interface ThumbnailsAreaDeps {
  db: Sequelize;
  dataDir: string;
  logger: Logger;
  topics: TopicPublisher;
  scheduler: Scheduler;
  shares: Pick<SharesService, 'requireAccess' | 'mayRead' | 'list'>;
  limits?: RenderLimits;
}

export const thumbnailSweepTask = 'thumbnails.sweep';
const sweepIntervalMs = 60 * 60 * 1000;

/**
 * The sweep runs without a caller; it reads the share folders the way an administrator
 * lists them (administrators see every share with its host path).
 */
const sweepPrincipal: Principal = {
  id: 0,
  username: 'thumbnail sweep',
  displayName: '',
  language: 'en',
  totpEnabled: false,
  admin: true,
  rights: new Set(),
  sessionId: '',
};

/** Builds thumbnails with their narrow dependencies: the files area's access check, topic and sweep. */
export function createThumbnailsArea(deps: ThumbnailsAreaDeps) {
  const { shares, logger } = deps;
  const rows = initThumbnailModel(deps.db);
  const cache = new ThumbnailCache(path.join(deps.dataDir, 'thumbnails'));
  const shareFolder = async (principal: Principal, shareId: number, need: 'read') => (await shares.requireAccess(principal, shareId, need)).hostPath;
  const service = new ThumbnailsService({ shareFolder, rows, cache, publisher: deps.topics, logger, limits: deps.limits });
  const shareRoots = async () => new Map((await shares.list(sweepPrincipal)).map((s) => [s.id, s.hostPath ?? '']));
  deps.scheduler.every(thumbnailSweepTask, sweepIntervalMs, (signal) => sweepThumbnails({ rows, cache, shareRoots, logger }, signal), { delayFirst: true });
  return defineArea({
    name: 'thumbnails',
    topics: [thumbnailsTopic({ shareFolder, mayRead: (p, id) => shares.mayRead(p, id) })],
    routes: [tableRoutes(api.thumbnails, thumbnailsHandlers(service))],
    thumbnails: service,
    // Renders in flight publish and write rows: they finish while topics and db are still open (later in the daemon's close).
    close: () => service.close(),
  });
}

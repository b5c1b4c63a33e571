import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Sequelize } from 'sequelize';
import { photo } from '../../../../../test/helpers/images.ts';
import { createLogger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrate } from '../../../db/migrate.ts';
import { ThumbnailCache } from './thumbnail-cache.ts';
import { initThumbnailModel, type ThumbnailRow } from './thumbnail.model.ts';
import { sweepThumbnails } from './thumbnail-sweep.ts';
import { ThumbnailsService } from './thumbnails.service.ts';

describe('thumbnails: the delete hook and the sweep of a removed share', () => {
  const logger = createLogger({ level: 'error', console: false, sinks: [] });
  const principal: Principal = {
    id: 1,
    username: 'admin',
    displayName: '',
    language: 'en',
    totpEnabled: false,
    admin: true,
    rights: new Set(),
    sessionId: 's',
  };
  let dir: string;
  let shareFolder: string;
  let db: Sequelize;
  let rows: typeof ThumbnailRow;
  let cache: ThumbnailCache;
  let service: ThumbnailsService;
  const events: { topic: string; type: string; data: unknown }[] = [];

  before(async () => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'cellar-thumbs-')));
    shareFolder = path.join(dir, 'share');
    mkdirSync(path.join(shareFolder, 'album', 'deeper'), { recursive: true });
    db = await openDatabase(path.join(dir, 'db.sqlite'), logger);
    await migrate(db, logger);
    await db.query("INSERT INTO shares (id, name, host_path, created_at) VALUES (1, 'Photos', ?, '2026-11-22T00:00:00Z')", { replacements: [shareFolder] });
    rows = initThumbnailModel(db);
    cache = new ThumbnailCache(path.join(dir, 'thumbnails'));
    service = new ThumbnailsService({
      // The share's folder as the shares area answers it once access is granted.
      shareFolder: async () => shareFolder,
      rows,
      cache,
      publisher: { publish: (topic, type, data) => void events.push({ topic, type, data }) },
      logger,
      concurrency: 1,
    });
    for (const [i, rel] of ['top.png', 'album/a.png', 'album/deeper/b.png', 'albums.png'].entries())
      await photo(120, 80, i + 1)
        .png()
        .toFile(path.join(shareFolder, rel));
  });
  after(async () => {
    await service.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const paths = ['top.png', 'album/a.png', 'album/deeper/b.png', 'albums.png'];

  it('renders through the queue and announces each one', async () => {
    const answer = await service.states(principal, 1, { paths });
    expect(answer.items.map((s) => s.state)).to.deep.equal(['queued', 'queued', 'queued', 'queued']);
    while (events.length < paths.length) await service.idle();
    expect(events.map((e) => [e.topic, e.type])).to.deep.equal(paths.map(() => ['thumbnails/1', 'ready']));
    expect((await service.states(principal, 1, { paths })).items.map((s) => s.state)).to.deep.equal(['ready', 'ready', 'ready', 'ready']);
  });

  it('forgets an entry and everything below it, and nothing that merely starts with its name', async () => {
    const before = await rows.findAll({ order: [['path', 'ASC']] });
    expect(await service.forget(1, 'album')).to.equal(2);
    const left = await rows.findAll({ order: [['path', 'ASC']] });
    expect(left.map((r) => r.path)).to.deep.equal(['albums.png', 'top.png']);
    for (const row of before) expect(existsSync(cache.fileOf(1, row.cacheKey, row.size)), row.path).to.equal(left.some((r) => r.id === row.id));
  });

  it('removes every thumbnail of a share that no longer exists', async () => {
    expect(existsSync(path.join(dir, 'thumbnails', '1'))).to.equal(true);
    const removed = await sweepThumbnails({ rows, cache, logger, shareRoots: async () => new Map() });
    expect(removed).to.equal(2);
    expect(await rows.count()).to.equal(0);
    expect(existsSync(path.join(dir, 'thumbnails', '1'))).to.equal(false);
  });
});

import { access, open, type FileHandle } from 'node:fs/promises';
import type {
  ThumbnailQuery,
  ThumbnailReason,
  ThumbnailRequest,
  ThumbnailSize,
  ThumbnailState,
  ThumbnailStates,
} from '../../../../../shared/src/api/files/thumbnails.ts';
import { topicName } from '../../../../../shared/src/topics.ts';
import type { Logger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { TopicPublisher } from '../../../core/topics/topic-provider.ts';
import { RenderQueue } from './render-queue.ts';
import type { ThumbnailCache } from './thumbnail-cache.ts';
import type { ThumbnailRow } from './thumbnail.model.ts';
import { defaultRenderLimits, renderThumbnail, type RenderLimits, type RenderOutcome } from './thumbnail-render.ts';
import { inspectSource, openSource, type SourceInfo } from './thumbnail-source.ts';
import { removeThumbnails } from './thumbnail-sweep.ts';

export interface ThumbnailsDeps {
  /** The share's folder when the caller may read it (throws fs.share.not_found), as for downloads. */
  shareFolder(principal: Principal, shareId: number, need: 'read'): Promise<string>;
  rows: typeof ThumbnailRow;
  cache: ThumbnailCache;
  publisher: TopicPublisher;
  logger: Logger;
  limits?: RenderLimits;
  /** Renders at once; 1 or 2 on a small box. */
  concurrency?: number;
}

/** A cached thumbnail opened for sending. */
export interface ThumbnailFile {
  handle: FileHandle;
  length: number;
  v: string;
  /** The caller named the current version: the URL will change with the file, so it may be cached for good. */
  immutable: boolean;
}

export const defaultThumbnailSize: ThumbnailSize = 256;
/** Sources inspected at once while answering states. */
const inspectBatch = 16;

/**
 * Thumbnails of share files: states answered at once, missing ones rendered by a bounded
 * queue and announced on `thumbnails/<shareId>`, cached by the file's identity and version.
 */
export class ThumbnailsService {
  private readonly queue: RenderQueue;
  /** Paths that asked for each queued render, so each of them is announced. */
  private readonly askedBy = new Map<string, Set<string>>();

  constructor(private readonly deps: ThumbnailsDeps) {
    this.queue = new RenderQueue(deps.concurrency ?? 2, (key, err) => {
      deps.logger.error('thumbnail render failed', { component: 'thumbnails', key, error: err instanceof Error ? err.message : String(err) });
    });
  }

  async states(principal: Principal, shareId: number, request: ThumbnailRequest): Promise<ThumbnailStates> {
    const size = request.size ?? defaultThumbnailSize;
    const root = await this.deps.shareFolder(principal, shareId, 'read');
    const infos: SourceInfo[] = [];
    for (let i = 0; i < request.paths.length; i += inspectBatch) {
      infos.push(...(await Promise.all(request.paths.slice(i, i + inspectBatch).map((p) => inspectSource(root, p)))));
    }
    const keys = infos.flatMap((info) => (info.kind === 'file' && info.format !== null ? [info.key] : []));
    const rows = keys.length ? await this.deps.rows.findAll({ where: { shareId, size, cacheKey: keys } }) : [];
    const byKey = new Map(rows.map((row) => [row.cacheKey, row]));
    const items: ThumbnailState[] = [];
    for (const [i, info] of infos.entries()) {
      const rel = request.paths[i] as string;
      items.push(await this.stateOf(shareId, root, rel, size, info, info.kind === 'file' ? byKey.get(info.key) : undefined));
    }
    return { topic: topicName.thumbnails(shareId), size, items };
  }

  /** The cached WebP of the file as it is now; fs.thumbnail.not_found when there is none yet or `v` is stale. */
  async thumbnail(principal: Principal, shareId: number, query: ThumbnailQuery): Promise<ThumbnailFile> {
    const size = query.size ?? defaultThumbnailSize;
    const root = await this.deps.shareFolder(principal, shareId, 'read');
    const source = await openSource(root, query.path);
    await source.handle.close();
    const notFound = () => new ProblemError('fs.thumbnail.not_found', { path: query.path });
    if (query.v !== undefined && query.v !== source.key) throw notFound();
    const row = await this.deps.rows.findOne({ where: { shareId, cacheKey: source.key, size, state: 'ready' } });
    if (!row) throw notFound();
    let handle: FileHandle;
    try {
      handle = await open(this.deps.cache.fileOf(shareId, source.key, size), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // The cache file went away behind the row's back (someone cleaned the data dir): render again on the next request.
      await row.destroy();
      throw notFound();
    }
    const { size: length } = await handle.stat();
    return { handle, length, v: source.key, immutable: query.v !== undefined };
  }

  /**
   * Drops the thumbnails of an entry and everything below it. The files area calls it after
   * a delete, move or rename; the periodic sweep catches changes made outside the API.
   */
  async forget(shareId: number, rel: string): Promise<number> {
    const rows = await this.deps.rows.findAll({ where: { shareId } });
    const gone = rel === '' ? rows : rows.filter((row) => row.path === rel || row.path.startsWith(`${rel}/`));
    await removeThumbnails(this.deps.rows, this.deps.cache, gone);
    return gone.length;
  }

  /** Resolves once no render waits or runs. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  private async stateOf(
    shareId: number,
    root: string,
    rel: string,
    size: ThumbnailSize,
    info: SourceInfo,
    row: ThumbnailRow | undefined,
  ): Promise<ThumbnailState> {
    if (info.kind === 'missing') return { path: rel, state: 'failed', v: null, reason: 'notFound' };
    if (info.kind === 'notFile') return { path: rel, state: 'unsupported', v: null, reason: 'notFile' };
    if (info.format === null) return { path: rel, state: 'unsupported', v: null, reason: 'notImage' };
    if (row?.state === 'failed') return { path: rel, state: 'failed', v: null, reason: row.reason };
    if (row?.state === 'ready') {
      const present = await access(this.deps.cache.fileOf(shareId, info.key, size)).then(
        () => true,
        () => false,
      );
      if (present) {
        // Same identity under another name (renamed, moved): the sweep looks for the source here from now on.
        if (row.path !== rel) await row.update({ path: rel });
        return { path: rel, state: 'ready', v: info.key, reason: null };
      }
      await row.destroy();
    }
    this.enqueue(shareId, root, rel, info.key, size);
    return { path: rel, state: 'queued', v: null, reason: null };
  }

  private enqueue(shareId: number, root: string, rel: string, key: string, size: ThumbnailSize): void {
    const job = `${shareId}:${key}:${size}`;
    const paths = this.askedBy.get(job) ?? new Set<string>();
    paths.add(rel);
    this.askedBy.set(job, paths);
    this.queue.add(job, () => this.render(shareId, root, size, job));
  }

  private async render(shareId: number, root: string, size: ThumbnailSize, job: string): Promise<void> {
    const topic = topicName.thumbnails(shareId);
    // Read when announcing: paths that asked while the render ran are announced too.
    const announce = (type: 'ready' | 'failed', data: { v: string; reason?: ThumbnailReason }) => {
      for (const path of this.askedBy.get(job) ?? []) this.deps.publisher.publish(topic, type, { path, size, ...data });
    };
    try {
      const rel = [...(this.askedBy.get(job) ?? [])][0];
      if (rel === undefined) return;
      const source = await openSource(root, rel).catch((err: unknown) => {
        if (err instanceof ProblemError) return null;
        throw err;
      });
      if (!source) return announce('failed', { v: job.split(':')[1] as string, reason: 'notFound' });
      // Rendered as it is now: a file changed since it was queued gets the new version's key.
      const { key, format } = source;
      let outcome: RenderOutcome;
      try {
        if (format === null) return announce('failed', { v: key, reason: 'notImage' });
        // libvips opens the already opened file through /proc, so a path swapped for a link meanwhile changes nothing.
        const input = `/proc/self/fd/${source.handle.fd}`;
        outcome = await this.deps.cache.write(shareId, key, size, (tmp) => renderThumbnail(input, format, size, tmp, this.deps.limits ?? defaultRenderLimits));
      } finally {
        await source.handle.close();
      }
      await this.deps.rows.destroy({ where: { shareId, cacheKey: key, size } });
      await this.deps.rows.create({
        shareId,
        path: rel,
        cacheKey: key,
        size,
        state: outcome.ok ? 'ready' : 'failed',
        reason: outcome.ok ? null : outcome.reason,
        createdAt: new Date().toISOString(),
      });
      if (outcome.ok) return announce('ready', { v: key });
      this.deps.logger.info('thumbnail refused', { component: 'thumbnails', shareId, path: rel, reason: outcome.reason, detail: outcome.detail });
      announce('failed', { v: key, reason: outcome.reason });
    } finally {
      this.askedBy.delete(job);
    }
  }
}

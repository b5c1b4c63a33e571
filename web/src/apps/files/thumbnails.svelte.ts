import type { FileEntry } from '../../../../shared/src/api/files/files.ts';
import { maxThumbnailPaths, thumbnailsRoutes, type ThumbnailSize } from '../../../../shared/src/api/files/thumbnails.ts';
import { buildUrl } from '../../../../shared/src/client.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';
import { looksLikeImage } from './format.ts';

const size: ThumbnailSize = 256;
/** Scrolling settles before asking, so a fast fling asks once for where it stopped. */
const settleMs = 120;

/**
 * Thumbnails of the entries on screen only: asks the daemon for their states, subscribes to
 * the share's thumbnail topic and swaps each picture in once it is rendered.
 */
export class Thumbnails {
  /** Image URL by path, for the entries whose thumbnail is ready. */
  urls = $state.raw<ReadonlyMap<string, string>>(new Map());
  /** The `modified` each path was asked for: a changed file is asked again. */
  private readonly asked = new Map<string, string>();
  private unsubscribe: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending: readonly FileEntry[] = [];

  constructor(readonly shareId: number) {}

  /** The entries now on screen (called on every scroll; cheap). */
  show(visible: readonly FileEntry[]): void {
    this.pending = visible;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.ask(), settleMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async ask(): Promise<void> {
    const wanted = this.pending.filter((e) => e.type === 'file' && looksLikeImage(e.name) && this.asked.get(e.path) !== e.modified).slice(0, maxThumbnailPaths);
    if (wanted.length === 0) return;
    for (const e of wanted) this.asked.set(e.path, e.modified);
    // Subscribed before asking, so no announcement of a queued one is missed.
    this.unsubscribe ??= live.subscribe('thumbnails', topicName.thumbnails(this.shareId), {
      event: (event) => {
        if (event.type === 'ready' && event.data.size === size) this.ready(event.data.path, event.data.v);
      },
    });
    try {
      const states = await api.thumbnails.states({ params: { shareId: this.shareId }, body: { paths: wanted.map((e) => e.path), size } });
      for (const item of states.items) if (item.state === 'ready' && item.v) this.ready(item.path, item.v);
    } catch {
      // Thumbnails are a nicety: icons stay, and the next scroll asks again.
      for (const e of wanted) this.asked.delete(e.path);
    }
  }

  private ready(path: string, v: string): void {
    if (!this.asked.has(path)) return;
    const next = new Map(this.urls);
    next.set(path, buildUrl(thumbnailsRoutes.get, { shareId: this.shareId }, { path, size, v }));
    this.urls = next;
  }
}

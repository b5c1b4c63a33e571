import type { FileEntry, SortKey, SortOrder } from '../../../../shared/src/api/files/files.ts';
import type { FolderEvent } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { describeError } from '../../lib/i18n/i18n.svelte.ts';
import { live } from '../../lib/live.ts';
import { entryComparator, insertionIndex } from './folder-order.ts';

/** Entries per request: the daemon's maximum, so scrolling through a huge folder needs few round trips. */
const pageSize = 1000;

/**
 * One open folder: the pages loaded so far in the daemon's order, more loaded as the view
 * nears their end, and live changes from the folder topic applied in place. The list is a raw
 * array (no deep reactivity): 100,000 proxied objects would cost more than the view ever shows.
 */
export class FolderModel {
  entries = $state.raw<FileEntry[]>([]);
  nextCursor = $state<string | null>(null);
  loading = $state(false);
  /** A readable message when the folder could not be read. */
  error = $state<string | null>(null);
  /** The first page arrived: the view can show the folder (or that it is empty). */
  ready = $state(false);

  private readonly compare: (a: FileEntry, b: FileEntry) => number;
  private readonly names = new Set<string>();
  private unsubscribe: (() => void) | null = null;
  private readonly abort = new AbortController();

  constructor(
    readonly shareId: number,
    readonly path: string,
    readonly sort: SortKey,
    readonly order: SortOrder,
  ) {
    this.compare = entryComparator(sort, order);
  }

  async start(): Promise<void> {
    await this.fetchPage(undefined);
  }

  /** Loads the next page unless one is on its way or the folder is complete. */
  async loadMore(): Promise<void> {
    if (this.nextCursor === null || this.loading || this.error) return;
    await this.fetchPage(this.nextCursor);
  }

  get complete(): boolean {
    return this.ready && this.nextCursor === null;
  }

  stop(): void {
    this.abort.abort();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  indexOf(name: string): number {
    return this.entries.findIndex((e) => e.name === name);
  }

  private async fetchPage(cursor: string | undefined): Promise<void> {
    this.loading = true;
    try {
      const page = await api.files.list({
        params: { shareId: this.shareId },
        query: { path: this.path, sort: this.sort, order: this.order, limit: pageSize, cursor },
        signal: this.abort.signal,
      });
      if (this.abort.signal.aborted) return;
      // Live events may have added some of these already.
      const fresh = page.items.filter((e) => !this.names.has(e.name));
      for (const e of fresh) this.names.add(e.name);
      this.entries = this.entries.length === 0 ? fresh : this.entries.concat(fresh);
      this.nextCursor = page.nextCursor;
      if (!this.unsubscribe) this.unsubscribe = live.subscribe('folder', page.topic, { event: (e) => this.apply(e) });
      this.ready = true;
    } catch (err) {
      if (!this.abort.signal.aborted) this.error = describeError(err);
    } finally {
      this.loading = false;
    }
  }

  /**
   * Reads the given entries of this folder again after a job touched them, so the list is right
   * even when the file system's own notices are late or missing.
   */
  async refresh(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (this.abort.signal.aborted) return;
      try {
        const entry = await api.files.entry({ params: { shareId: this.shareId }, query: { path: this.path === '' ? name : `${this.path}/${name}` } });
        if (!this.abort.signal.aborted) this.upsert(entry);
      } catch {
        // Gone (or unreadable now): it leaves the list.
        if (!this.abort.signal.aborted) this.remove(name);
      }
    }
  }

  private apply(event: FolderEvent): void {
    if (event.type === 'deleted') return this.remove(event.data.name);
    if (event.type === 'renamed') this.remove(event.data.oldName);
    this.upsert(event.data.entry);
  }

  private remove(name: string): void {
    if (!this.names.delete(name)) return;
    this.entries = this.entries.filter((e) => e.name !== name);
  }

  private upsert(entry: FileEntry): void {
    const list = this.names.has(entry.name) ? this.entries.filter((e) => e.name !== entry.name) : this.entries;
    const at = insertionIndex(list, entry, this.compare);
    // Beyond the loaded pages it arrives with a later page, in its place.
    if (at === list.length && this.nextCursor !== null) {
      if (list !== this.entries) {
        this.names.delete(entry.name);
        this.entries = list;
      }
      return;
    }
    this.names.add(entry.name);
    this.entries = [...list.slice(0, at), entry, ...list.slice(at)];
  }
}

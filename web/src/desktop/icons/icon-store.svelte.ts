import type { DesktopItem, DesktopState, NewDesktopItem } from '../../../../shared/src/api/desktop/desktop.ts';
import type { DesktopEvent } from '../../../../shared/src/topics.ts';
import { ApiError } from '../../../../shared/src/client.ts';
import { api } from '../../lib/api.ts';
import { conflictVersion, loadDesktop, saveLayout, updateItem } from '../desktop-api.ts';
import { emptyLayout, mergeLayout, moveIcon, placeItems, readLayout, type Cell, type DesktopLayout } from './layout.ts';

const maxConflictRetries = 5;

/**
 * The desktop's icons: the user's items and this device's layout of them. Saves go out one at
 * a time with If-Match; a 412 from another tab reloads what changed and re-applies this tab's
 * change on top, because the change the user just made is the newest one.
 */
export class IconStore {
  items = $state<DesktopItem[]>([]);
  layout = $state<DesktopLayout>(emptyLayout());
  /** Rows of icons that fit the workspace; new icons fill columns top to bottom. */
  rows = 6;
  /** Set when a save finally failed (the box unreachable): shown in words, the layout stays as the user left it. */
  error = $state<unknown>(null);
  private base: DesktopLayout = emptyLayout();
  private version = 0;
  private saving: Promise<void> | null = null;
  private dirty = false;
  /** Another tab of this device saved a newer layout: read it once this tab's own saves are out. */
  private reloadWanted = false;

  constructor(private readonly onReloaded: (state: DesktopState) => void = () => {}) {}

  /** Takes what GET /api/desktop answered. */
  load(state: DesktopState): void {
    this.items = state.items;
    this.base = readLayout(state.layout);
    this.version = state.layoutVersion;
    this.layout = placeItems(
      this.base,
      state.items.map((i) => i.id),
      this.rows,
    );
  }

  cell(item: DesktopItem): Cell | undefined {
    return this.layout.icons[String(item.id)];
  }

  move(item: DesktopItem, to: Cell): void {
    this.layout = moveIcon(this.layout, String(item.id), to);
    this.requestSave();
  }

  async add(item: NewDesktopItem): Promise<DesktopItem> {
    const created = await api.desktop.createItem({ body: item });
    // The topic may have announced it before the answer came.
    this.items = [...this.items.filter((i) => i.id !== created.id), created];
    this.layout = placeItems(
      this.layout,
      this.items.map((i) => i.id),
      this.rows,
    );
    this.requestSave();
    return created;
  }

  async remove(item: DesktopItem): Promise<void> {
    await api.desktop.deleteItem({ params: { id: item.id } });
    this.items = this.items.filter((i) => i.id !== item.id);
    this.layout = placeItems(
      this.layout,
      this.items.map((i) => i.id),
      this.rows,
    );
    this.requestSave();
  }

  /**
   * Applies an item change from the `desktop` topic. An event of a version this tab already has
   * (it made the change itself, or saw a newer one) changes nothing.
   */
  applyItemEvent(event: Extract<DesktopEvent, { type: `item.${string}` }>): void {
    if (event.type === 'item.deleted') {
      if (!this.items.some((i) => i.id === event.data.id)) return;
      this.items = this.items.filter((i) => i.id !== event.data.id);
    } else {
      const item = event.data;
      const known = this.items.find((i) => i.id === item.id);
      if (known && known.version >= item.version) return;
      this.items = known ? this.items.map((i) => (i.id === item.id ? item : i)) : [...this.items, item];
    }
    // Cells only here: a new item gets a free one; the tab that made the change saves the layout.
    this.layout = placeItems(
      this.layout,
      this.items.map((i) => i.id),
      this.rows,
    );
  }

  /**
   * Catches up with the items of the `desktop` topic's snapshot, sent again after a reconnect:
   * newer versions replace this tab's, new items appear and items deleted meanwhile go.
   */
  catchUp(items: DesktopItem[]): void {
    const present = new Set(items.map((i) => i.id));
    for (const gone of this.items.filter((i) => !present.has(i.id))) this.applyItemEvent({ type: 'item.deleted', data: { id: gone.id } });
    for (const item of items) this.applyItemEvent({ type: 'item.changed', data: item });
  }

  /** A tab of this device saved `version` of the layout: read it, unless this tab wrote it. */
  layoutSaved(version: number): void {
    if (version <= this.version) return;
    this.reloadWanted = true;
    this.run();
  }

  /** Renames an item; if another tab changed it meanwhile, reloads it and applies this newer name to it. */
  async rename(item: DesktopItem, label: string): Promise<void> {
    // The version the user began editing: if another tab changed it since, the 412 below reloads it.
    let current = item;
    for (let attempt = 0; ; attempt++) {
      try {
        const saved = await updateItem(current, { label });
        this.items = this.items.map((i) => (i.id === saved.id ? saved : i));
        return;
      } catch (err) {
        const gone = err instanceof ApiError && err.code === 'desktop.item.not_found';
        if (!gone && (conflictVersion(err, 'desktop.item.conflict') === null || attempt >= maxConflictRetries)) throw err;
        const fresh = gone ? undefined : (await api.desktop.listItems()).find((i) => i.id === item.id);
        // Deleted elsewhere meanwhile: nothing is left to rename.
        if (!fresh) {
          this.items = this.items.filter((i) => i.id !== item.id);
          return;
        }
        current = fresh;
      }
    }
  }

  /** Saves soon; changes made while a save is out go in the next one. */
  requestSave(): Promise<void> {
    this.dirty = true;
    return this.run();
  }

  /** Saves and reloads run one at a time, so a reload never races a save of this tab. */
  private run(): Promise<void> {
    if (!this.saving) {
      this.saving = this.drain().finally(() => (this.saving = null));
    }
    return this.saving;
  }

  /** Resolves once every change so far is saved (tests and sign-out wait for it). */
  async settled(): Promise<void> {
    while (this.saving) await this.saving;
  }

  private async drain(): Promise<void> {
    while (this.dirty || this.reloadWanted) {
      if (!this.dirty) {
        this.reloadWanted = false;
        await this.reload();
        continue;
      }
      this.dirty = false;
      const layout = $state.snapshot(this.layout);
      try {
        await this.saveOnce(layout);
        this.error = null;
      } catch (err) {
        this.error = err;
        return;
      }
    }
  }

  /**
   * Takes the layout another tab of this device saved. Icons moved while it loads (a drag that
   * ended meanwhile) stay where this tab put them and are saved on top.
   */
  private async reload(): Promise<void> {
    const before = $state.snapshot(this.layout);
    let fresh: DesktopState;
    try {
      fresh = await loadDesktop();
    } catch (err) {
      // The next save or event tries again; a failed reload loses nothing of this tab's.
      console.warn('desktop layout reload failed', err);
      return;
    }
    if (fresh.layoutVersion <= this.version) return;
    const server = readLayout(fresh.layout);
    this.items = fresh.items;
    this.base = server;
    this.version = fresh.layoutVersion;
    this.layout = placeItems(
      mergeLayout(server, before, $state.snapshot(this.layout), this.rows),
      fresh.items.map((i) => i.id),
      this.rows,
    );
    this.onReloaded(fresh);
  }

  private async saveOnce(layout: DesktopLayout): Promise<void> {
    let mine = layout;
    for (let attempt = 0; ; attempt++) {
      try {
        this.version = await saveLayout(mine, this.version);
        this.base = mine;
        return;
      } catch (err) {
        if (conflictVersion(err, 'desktop.layout.conflict') === null || attempt >= maxConflictRetries) throw err;
        // Another tab of this device saved: take its layout (and items) and put this change on top.
        const fresh = await loadDesktop();
        const server = readLayout(fresh.layout);
        this.items = fresh.items;
        mine = placeItems(
          mergeLayout(server, this.base, mine, this.rows),
          fresh.items.map((i) => i.id),
          this.rows,
        );
        this.base = server;
        this.version = fresh.layoutVersion;
        // Changes the user made during the round trip stay theirs: merged the same way.
        this.layout = mergeLayout(mine, layout, $state.snapshot(this.layout), this.rows);
        this.onReloaded(fresh);
      }
    }
  }
}

import type { StoreState } from '../../../../shared/src/api/store/store.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';

/** The Store's catalogs, settings and waiting updates, kept live: `store/admin` carries the whole state on each change. */
export class StoreStateStore {
  state = $state<StoreState | null>(null);
  error = $state<unknown>(null);

  start(): () => void {
    void this.reload();
    return live.subscribe('storeAdmin', topicName.storeAdmin, {
      snapshot: (state) => (this.state = state),
      event: (event) => (this.state = event.data),
    });
  }

  private firstLoad = true;

  async reload(): Promise<void> {
    try {
      this.state = await api.store.state();
      this.error = null;
      if (this.firstLoad) this.fetchNeverFetched(this.state);
      this.firstLoad = false;
    } catch (err) {
      this.error = err;
    }
  }

  /**
   * A new box calls out for its project catalogs only once an administrator opens the App Center:
   * the first open fetches each one never fetched; after that the daily check and "Fetch now" do.
   */
  private fetchNeverFetched(state: StoreState): void {
    for (const c of state.catalogs) {
      if (c.builtIn && c.enabled && c.state === 'new') void api.store.sync({ params: { key: c.key } }).catch((err: unknown) => (this.error = err));
    }
  }
}

/** Address of a catalog app's image: served by the box from its verified copy, checked against the index. */
export const storeImage = (catalog: string, appId: string, version: string, screenshot?: string) =>
  `/api/store/catalogs/${encodeURIComponent(catalog)}/apps/${encodeURIComponent(appId)}/${encodeURIComponent(version)}/${screenshot ? `screenshots/${encodeURIComponent(screenshot)}` : 'icon'}`;

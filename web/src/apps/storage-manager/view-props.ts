import type { StorageStore } from './storage-store.svelte.ts';

/** What the Storage Manager gives each of its views. */
export interface ViewProps {
  store: StorageStore;
  /** The whole window route, e.g. `pools/tank` or `snapshots`. */
  route: string;
  navigate(route: string): void;
}

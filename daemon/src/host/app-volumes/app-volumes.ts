/**
 * Where each app's files live: one volume per app on the app pool, holding the unpacked package
 * (`package/`, the daemon's) and the app's data (`data/`, its own account's). Package and data
 * share one volume so a snapshot taken before an update returns both to the same point.
 */
export interface AppVolume {
  /** The dataset `<pool>/apps/<id>` on a box; a folder's name on a development machine. */
  name: string;
  path: string;
}

export interface AppVolumes {
  readonly kind: 'zfs' | 'folder';
  poolExists(pool: string): Promise<boolean>;
  /** The app's volume on `pool`, created when it does not exist yet (a kept one is found again). */
  ensure(pool: string, appId: string): Promise<AppVolume>;
  /** The volume of that name, or null when it is gone. */
  find(name: string): Promise<AppVolume | null>;
  snapshot(name: string, snapshot: string): Promise<void>;
  /** Returns the volume to the snapshot, dropping every later change and the snapshot itself. */
  rollback(name: string, snapshot: string): Promise<void>;
  destroySnapshot(name: string, snapshot: string): Promise<void>;
  /** Destroys the volume with all its snapshots. */
  destroy(name: string): Promise<void>;
  /** Whether setQuota holds: a dataset's quota does, a folder cannot have one. */
  readonly quotaEnforced: boolean;
  /** Limits what the volume holds, its snapshots included; null for none. */
  setQuota(name: string, bytes: number | null): Promise<void>;
  /** What the volume holds now, its snapshots included; null where it is not measured. */
  usedBytes(name: string): Promise<number | null>;
}

/** Names of the snapshots the apps area takes before an update. */
export const updateSnapshotName = (now: Date) =>
  `service-update-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;

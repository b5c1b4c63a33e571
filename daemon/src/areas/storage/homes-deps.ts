import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Logger } from '../../core/logger.ts';
import type { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import type { HomeModels, HomeRow, HomeSettingsRow } from './homes.model.ts';

// What the homes service and the disposal of a deleted user's home (homes-disposal.ts) both take,
// below both, so that the service can build the disposal without the disposal importing it back.

/** The shares area as homes need it: a home is a dataset share its user may read and write. */
export interface HomeShares {
  register(share: { name: string; dataset: string; hostPath: string }): Promise<number>;
  remove(shareId: number): Promise<void>;
  grantOwner(shareId: number, userId: number): Promise<void>;
  relocate(shareId: number, fields: { name?: string; dataset?: string; hostPath?: string }): Promise<void>;
  hostPath(shareId: number): Promise<string | null>;
  /** Files copied into a share with their old ACL (copyTree) get the share's own (the file services). */
  entriesArrived(shareId: number, fullPaths: string[]): void;
}

export interface HomesDeps {
  models: HomeModels;
  zfs: ZfsDriver;
  shares: HomeShares;
  logger: Logger;
  enqueue(kind: string, params: object, userId: number): Promise<Job>;
  /** Copies a folder's contents with owners, modes and ACLs (copyTree, as `cp -a`). */
  copy(from: string, to: string, signal?: AbortSignal): Promise<void>;
}

/** The steps of the homes service a disposal runs (HomesService implements them). */
export interface HomeSteps {
  settings(): Promise<HomeSettingsRow>;
  release(shareId: number, targetShareId: number, actorId: number): Promise<Job>;
  /** Destroys the home's dataset with every snapshot, its share and its row. */
  destroy(row: HomeRow): Promise<void>;
  /** Creates `<pool>/homes` when missing, then the dataset; answers its mount point. */
  makeDataset(dataset: string, quota: number | null): Promise<string>;
  mountpoint(dataset: string): Promise<string>;
  destroyDataset(dataset: string, signal?: AbortSignal): Promise<void>;
  command(argv: string[], signal?: AbortSignal): Promise<void>;
}

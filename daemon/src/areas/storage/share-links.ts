import type { SharesService } from '../shares/shares.service.ts';
import type { StorageAreaDeps } from './storage.area.ts';

type ShareLinks = Pick<StorageAreaDeps, 'shares' | 'homeShares' | 'versionShares' | 'restorePointShares'>;

/**
 * How the storage area reaches the shares it makes and serves (dataset shares of a plan, homes,
 * file versions, restore points): all through the shares service, which stays the one owner of
 * share rows and grants. `entriesArrived` tells the file services of entries a job created.
 */
export function storageShareLinks(shares: SharesService, entriesArrived: (shareId: number, fullPaths: string[]) => void): ShareLinks {
  const byId = async (shareId: number) => (await shares.datasets()).find((s) => s.id === shareId) ?? null;
  return {
    shares: {
      nameTaken: async (name) => (await shares.datasets()).some((s) => s.name === name),
      find: byId,
      namesOnPool: async (pool) => (await shares.datasets()).filter((s) => s.dataset?.split('/')[0] === pool).map((s) => s.name),
      register: (share) => shares.registerDataset(share),
      remove: (shareId) => shares.removeShare(shareId),
    },
    homeShares: {
      register: (share) => shares.registerDataset(share),
      remove: (shareId) => shares.removeShare(shareId),
      grantOwner: async (shareId, userId) =>
        void (await shares.setGrants(shareId, { grants: [{ subjectType: 'user', subjectId: userId, level: 'readWrite' }] })),
      relocate: (shareId, fields) => shares.relocateDataset(shareId, fields),
      hostPath: async (shareId) => (await byId(shareId))?.hostPath ?? null,
      entriesArrived,
    },
    versionShares: {
      share: async (principal, shareId, need) => shares.requireAccess(principal, shareId, need),
      shareById: byId,
    },
    restorePointShares: () => shares.datasets(),
  };
}

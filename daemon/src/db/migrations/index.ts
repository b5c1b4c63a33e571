import type { MigrationSet } from '../migration-types.ts';

/**
 * Every migration, by name. Listed here rather than found by reading the folder, so the bundled
 * daemon carries them too; migrations-index.test.ts fails when a file is missing here.
 */
export const migrations: MigrationSet = {
  '20261122000000-users-and-sessions': () => import('./20261122000000-users-and-sessions.ts'),
  '20261122010000-jobs': () => import('./20261122010000-jobs.ts'),
  '20261122040000-identity': () => import('./20261122040000-identity.ts'),
  '20261122050000-desktop': () => import('./20261122050000-desktop.ts'),
  '20261122050100-notifications': () => import('./20261122050100-notifications.ts'),
  '20261122060000-shares': () => import('./20261122060000-shares.ts'),
  '20261122070000-storage': () => import('./20261122070000-storage.ts'),
  '20261122090000-thumbnails': () => import('./20261122090000-thumbnails.ts'),
  '20261122100000-trash': () => import('./20261122100000-trash.ts'),
  '20261122110000-storage-homes': () => import('./20261122110000-storage-homes.ts'),
  '20261122150000-system-settings': () => import('./20261122150000-system-settings.ts'),
  '20261125000000-desktop-seeded': () => import('./20261125000000-desktop-seeded.ts'),
  '20261125010000-apps': () => import('./20261125010000-apps.ts'),
  '20261125200000-proxy': () => import('./20261125200000-proxy.ts'),
  '20261125200000-store': () => import('./20261125200000-store.ts'),
  '20261125230000-notification-codes': () => import('./20261125230000-notification-codes.ts'),
  '20261125230000-proxy-grants': () => import('./20261125230000-proxy-grants.ts'),
  '20261125230100-store-announcements': () => import('./20261125230100-store-announcements.ts'),
  '20261128050000-app-source': () => import('./20261128050000-app-source.ts'),
  '20261128120000-app-quotas': () => import('./20261128120000-app-quotas.ts'),
  '20261128150000-job-titles': () => import('./20261128150000-job-titles.ts'),
  '20261129020000-replication-pairings': () => import('./20261129020000-replication-pairings.ts'),
  '20261129020000-replication-tasks': () => import('./20261129020000-replication-tasks.ts'),
};

import type { ErrorSpec } from './catalog-entry.ts';
import { appErrors } from './apps.ts';
import { authErrors } from './auth.ts';
import { backupErrors } from './backup.ts';
import { fileOperationErrors } from './file-operations.ts';
import { fileVersionErrors } from './file-versions.ts';
import { firstRunErrors } from './first-run.ts';
import { homesErrors } from './homes.ts';
import { hostErrors } from './host.ts';
import { installerErrors } from './installer.ts';
import { filesErrors } from './files.ts';
import { desktopErrors } from './desktop.ts';
import { jobErrors } from './jobs.ts';
import { logErrors } from './logs.ts';
import { networkErrors } from './network.ts';
import { notificationErrors } from './notifications.ts';
import { proxyErrors } from './proxy.ts';
import { replicationTaskErrors } from './replication-tasks.ts';
import { replicationErrors } from './replication.ts';
import { requestErrors } from './request.ts';
import { storageErrors } from './storage.ts';
import { storeErrors } from './store.ts';
import { systemErrors } from './system.ts';
import { thumbnailErrors } from './thumbnails.ts';
import { tlsErrors } from './tls.ts';
import { updatesErrors } from './updates.ts';
import { topicErrors } from './topics.ts';
import { usersErrors } from './users.ts';

export type { ErrorSpec } from './catalog-entry.ts';

/** Every error code the API can answer, area by area. One entry per code; add an area's file here. */
export const errorCatalog = {
  ...requestErrors,
  ...storageErrors,
  ...hostErrors,
  ...authErrors,
  ...filesErrors,
  ...fileOperationErrors,
  ...desktopErrors,
  ...jobErrors,
  ...logErrors,
  ...notificationErrors,
  ...thumbnailErrors,
  ...topicErrors,
  ...usersErrors,
  ...homesErrors,
  ...fileVersionErrors,
  ...appErrors,
  ...firstRunErrors,
  ...tlsErrors,
  ...systemErrors,
  ...backupErrors,
  ...networkErrors,
  ...proxyErrors,
  ...storeErrors,
  ...updatesErrors,
  ...installerErrors,
  ...replicationTaskErrors,
  ...replicationErrors,
} satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof errorCatalog;

/** Problem details body (RFC 9457) as every failure answers it. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  params?: Record<string, unknown>;
  requestId: string;
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorCatalog, code);
}

/** The problem `type` URI of a code: a stable anchor in the API documentation. */
export function problemType(code: ErrorCode): string {
  return `/api/docs#error-${code}`;
}

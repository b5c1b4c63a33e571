import type { FileEntry } from './api/files/files.ts';
import type { ThumbnailReason, ThumbnailSize } from './api/files/thumbnails.ts';
import type { Job } from './api/jobs/jobs.ts';
import type { Appearance, DesktopItem, WindowPreference } from './api/desktop/desktop.ts';
import type { Notification, NotificationList } from './api/notifications/notifications.ts';
import type { ShareInfo } from './api/shares/shares.ts';
import type { LogEntry } from './api/logs/logs.ts';
import type { EffectiveRights } from './api/identity/permissions.ts';
import type { PoolList, StorageHealth } from './api/storage/storage.ts';
import type { AdminAppList, AppLogLevel } from './api/apps/apps.ts';
import type { ResourceHistory, ResourceSample } from './api/system/monitor.ts';
import type { NetworkState } from './api/network/network.ts';
import type { StoreState } from './api/store/store.ts';
import type { UpdateStatus } from './api/updates/updates.ts';
import type { ProxySettings } from './api/proxy/proxy.ts';
import type { ReplicationTask } from './api/replication/tasks.ts';
import type { Pairing } from './api/replication/replication.ts';

/**
 * Every live topic: its name pattern, the payload of its events and of its snapshot.
 * A topic name is concrete (`jobs/42`); `pattern` matches the family.
 */
export interface TopicSpec<Snapshot, Event> {
  pattern: RegExp;
  /** Phantom fields: types only, never set at run time. */
  snapshot?: Snapshot;
  event?: Event;
}

function topic<Snapshot, Event>(pattern: RegExp): TopicSpec<Snapshot, Event> {
  return { pattern };
}

export type JobEvent = { type: 'changed'; data: Job };
/**
 * The caller's own jobs (also for administrators: the tray shows one's own work): `added` when
 * one is created, `changed` when its state changes. Progress is never sent here; follow `jobs/<id>`.
 */
export type JobsListEvent = { type: 'added' | 'changed'; data: Job };
/** New log entries in the batches the store wrote them, oldest first; administrators only. */
export type LogTailEvent = { type: 'entries'; data: LogEntry[] };

/** Says only that the caller's list of shares may have changed: fetch GET /api/shares again. */
export type SharesListEvent = { type: 'changed'; data: Record<string, never> };
/**
 * Changes of one listed folder, seen by the file system (also those made over SMB, SFTP or a shell).
 * `entry` is the entry as it is now (null once deleted); `renamed` carries the old name too.
 */
export type FolderEvent =
  | { type: 'created' | 'changed'; data: { name: string; entry: FileEntry } }
  | { type: 'deleted'; data: { name: string; entry: null } }
  | { type: 'renamed'; data: { name: string; oldName: string; entry: FileEntry } };

/** A queued thumbnail was rendered (fetch it with `v`) or could not be. */
export type ThumbnailEvent =
  | { type: 'ready'; data: { path: string; size: ThumbnailSize; v: string } }
  | { type: 'failed'; data: { path: string; size: ThumbnailSize; v: string; reason: ThumbnailReason } };

/** Changes of the caller's notifications: apply them to the snapshot to keep the list GET /api/notifications answers. */
export type NotificationEvent =
  { type: 'created'; data: Notification } | { type: 'read'; data: { ids: number[] } } | { type: 'deleted'; data: { ids: number[] } };

/**
 * Committed changes of the caller's desktop, from any tab or device. Items carry their new
 * version: a tab that already has it (it wrote the change itself) ignores the event. A saved
 * layout names its device: only tabs of that device, behind that version, read it again.
 */
export type DesktopEvent =
  | { type: 'item.created' | 'item.changed'; data: DesktopItem }
  | { type: 'item.deleted'; data: { id: number } }
  | { type: 'appearance.changed'; data: Appearance }
  | { type: 'window.changed'; data: WindowPreference }
  | { type: 'layout.saved'; data: { deviceId: string; version: number } };

/**
 * What a tab needs to catch up after missing events (it subscribes again on every reconnect):
 * the appearance, every item with its version, window preferences and each device's layout version.
 */
export interface DesktopSnapshot {
  appearance: Appearance;
  items: DesktopItem[];
  windowPreferences: WindowPreference[];
  layoutVersions: Record<string, number>;
}

/** A user's rights changed (grants, groups, administrator flag): the desktop re-reads what it may show. */
export type UserGrantsEvent = { type: 'changed'; data: EffectiveRights };

/** The pools as GET /api/storage/pools answers them, sent whole on every change (scrub progress included); administrators only. */
export type StoragePoolsEvent = { type: 'changed'; data: PoolList };
/** Alerts changed; mute flags are per caller, so read GET /api/storage/alerts again (the snapshot is the subscriber's). Administrators only. */
export type StorageAlertsEvent = { type: 'changed'; data: Record<string, never> };

/** The installed apps as GET /api/apps answers them, sent whole on every change; administrators only. */
export type AppsAdminEvent = { type: 'changed'; data: AdminAppList };
/** To an app's windows: its log level (debug on or off) changed. */
export type AppsEvent = { type: 'logLevel'; data: { appId: string; level: AppLogLevel } };

/** One second of the box's load, sent while anybody watches; administrators only. */
export type SystemMonitorEvent = { type: 'sample'; data: ResourceSample };
/** A link, address or pending change moved: the whole state again, without the connection's interface. */
export type SystemNetworkEvent = { type: 'changed'; data: NetworkState };

/** `changed`: the same as GET /api/system/updates; `restarting`: the daemon restarts now (its package changed or a snapshot returned), pages reconnect. */
export type SystemUpdatesEvent = { type: 'changed'; data: UpdateStatus } | { type: 'restarting'; data: { reason: 'package' | 'snapshot' } };

/** The reverse proxy's settings as GET /api/proxy answers them, sent whole after every change (another administrator's too). */
export type ProxyEvent = { type: 'changed'; data: ProxySettings };

/** Replication tasks as GET /api/storage/replication/tasks answers them after every change, and the bytes of running runs; administrators only. */
export type ReplicationTasksEvent =
  { type: 'changed'; data: ReplicationTask[] } | { type: 'progress'; data: { taskId: number; jobId: number; bytes: number; total: number } };
/** The box's pairings as GET /api/storage/replication/pairings answers them, sent whole after every change. */
export type StorageReplicationEvent = { type: 'changed'; data: Pairing[] };

export const topics = {
  storagePools: topic<PoolList, StoragePoolsEvent>(/^storage\/pools$/),
  storageAlerts: topic<StorageHealth, StorageAlertsEvent>(/^storage\/alerts$/),
  /** Snapshot: the user's effective rights; only the user themself may subscribe. */
  userGrants: topic<EffectiveRights, UserGrantsEvent>(/^users\/\d+\/grants$/),
  /** Snapshot: the same list as GET /api/shares for the caller. */
  sharesList: topic<ShareInfo[], SharesListEvent>(/^shares\/list$/),
  /** `files/<shareId>` for a share's top folder, `files/<shareId>/<path>` below it; no snapshot. */
  folder: topic<undefined, FolderEvent>(/^files\/\d+(\/.+)?$/),
  job: topic<Job, JobEvent>(/^jobs\/\d+$/),
  /** `jobs`: each user reads their own; snapshot: their unfinished jobs and the most recent finished ones, newest first. */
  jobsList: topic<Job[], JobsListEvent>(/^jobs$/),
  /** `thumbnails/<shareId>`: thumbnails of the share queued by POST .../thumbnails; no snapshot. */
  thumbnails: topic<undefined, ThumbnailEvent>(/^thumbnails\/\d+$/),
  /** `desktop`: each user reads their own desktop's changes; snapshot: what a tab needs to catch up after a reconnect. */
  desktop: topic<DesktopSnapshot, DesktopEvent>(/^desktop$/),
  /** Each user reads their own; snapshot: the same list as GET /api/notifications. */
  notifications: topic<NotificationList, NotificationEvent>(/^notifications$/),
  /** Snapshot: the newest 100 entries, newest first. */
  logTail: topic<LogEntry[], LogTailEvent>(/^logs\/tail$/),
  /** Snapshot: the same list as GET /api/apps. */
  appsAdmin: topic<AdminAppList, AppsAdminEvent>(/^apps\/admin$/),
  /** `apps/<appId>`: for the windows of an app the caller may use; snapshot: the app's log level. */
  apps: topic<{ appId: string; level: AppLogLevel }, AppsEvent>(/^apps\/[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/),
  /** The resource monitor: sampled each second only while subscribed; snapshot: the last hour's samples. */
  systemMonitor: topic<ResourceHistory, SystemMonitorEvent>(/^system\/monitor$/),
  /** Administrators only; snapshot: the same as GET /api/system/network with `connectionInterface` null. */
  systemNetwork: topic<NetworkState, SystemNetworkEvent>(/^system\/network$/),
  /** Snapshot: the same state as GET /api/store; `changed` carries it again after every change. */
  storeAdmin: topic<StoreState, { type: 'changed'; data: StoreState }>(/^store\/admin$/),
  /** Administrators only; snapshot: the same as GET /api/system/updates. */
  systemUpdates: topic<UpdateStatus, SystemUpdatesEvent>(/^system\/updates$/),
  /** Administrators only; snapshot: the same as GET /api/proxy. */
  proxy: topic<ProxySettings, ProxyEvent>(/^proxy$/),
  /** Administrators only; snapshot: the same as GET /api/storage/replication/tasks. */
  replicationTasks: topic<ReplicationTask[], ReplicationTasksEvent>(/^storage\/replication\/tasks$/),
  /** Administrators only; snapshot: the same as GET /api/storage/replication/pairings. */
  storageReplication: topic<Pairing[], StorageReplicationEvent>(/^storage\/replication$/),
};

export const topicName = {
  storagePools: 'storage/pools',
  storageAlerts: 'storage/alerts',
  userGrants: (userId: number) => `users/${userId}/grants`,
  sharesList: 'shares/list',
  folder: (shareId: number, path: string) => (path === '' ? `files/${shareId}` : `files/${shareId}/${path}`),
  job: (jobId: number) => `jobs/${jobId}`,
  jobsList: 'jobs',
  thumbnails: (shareId: number) => `thumbnails/${shareId}`,
  notifications: 'notifications',
  desktop: 'desktop',
  logTail: 'logs/tail',
  appsAdmin: 'apps/admin',
  apps: (appId: string) => `apps/${appId}`,
  systemMonitor: 'system/monitor',
  systemNetwork: 'system/network',
  storeAdmin: 'store/admin',
  systemUpdates: 'system/updates',
  proxy: 'proxy',
  replicationTasks: 'storage/replication/tasks',
  storageReplication: 'storage/replication',
};

/** What a client receives for a subscribed topic. */
export interface TopicEvent<T = unknown> {
  topic: string;
  type: string;
  data: T;
}

export type SubscribeAck<S = unknown> = { ok: true; snapshot?: S } | { ok: false; problem: import('./errors/index.ts').ProblemDetails };

/*
 * The Socket.IO protocol at /socket.io (same origin, session cookie box.sid).
 * A refused handshake fails with `connect_error` whose `data` is ProblemDetails
 * (auth.session.required). A socket whose session ends (sign-out, deactivation,
 * expiry) is disconnected by the server ("io server disconnect").
 */

/** Body of "subscribe" and "unsubscribe". A malformed one is answered with request.body.invalid. */
export interface TopicRequest {
  topic: string;
}

/** "unsubscribe" may take an ack; it answers once the topic has stopped. */
export type UnsubscribeAck = { ok: true } | { ok: false; problem: import('./errors/index.ts').ProblemDetails };

/**
 * Sent as "topic.ended" when the server stops a subscribed topic on its own, for example
 * after a grant change (auth.permission.denied). No "event" follows for that topic.
 */
export interface TopicEnded {
  topic: string;
  problem: import('./errors/index.ts').ProblemDetails;
}

/** Most topics one connection may hold at once (topics.subscriptions.too_many beyond). */
export const maxTopicsPerSocket = 200;

/** What the server emits: Socket.IO's ServerToClientEvents. */
export interface TopicServerEvents {
  event: (event: TopicEvent) => void;
  'topic.ended': (ended: TopicEnded) => void;
}

/** What the client emits: Socket.IO's ClientToServerEvents. */
export interface TopicClientEvents {
  subscribe: (request: TopicRequest, ack: (answer: SubscribeAck) => void) => void;
  unsubscribe: (request: TopicRequest, ack?: (answer: UnsubscribeAck) => void) => void;
}

import type { TopicProvider } from '../core/topics/topic-provider.ts';
import type { AreaMount, TableRoutes } from '../http/area-routes.ts';
import type { BackupPart } from './backup-part.ts';

/** What an area's start gets from the daemon. */
export interface AreaStart {
  /** The daemon's address; known only once the server listens (areas after it in the list may ask). */
  url(): string;
}

/**
 * What an area contributes to the daemon, returned by the constructor in its `<area>.area.ts`.
 * daemon.ts builds the areas in the order of their dependencies, lists them, and then registers
 * every area's routes and topics in one loop, starts them in list order and closes them in reverse.
 */
export interface Area {
  /** The area's name in logs and errors (its folder's). */
  name: string;
  /** Its route tables with handlers, and mounts for routes outside the tables, in matching order. */
  routes?: (TableRoutes | AreaMount)[];
  /** Live topics it serves. */
  topics?: TopicProvider[];
  /** Its part of the configuration backup, or its parts where it keeps several (identity: users, groups, permissions). */
  backupPart?: BackupPart | readonly BackupPart[];
  /** Once everything is built, in list order (what comes before it has started). */
  start?(daemon: AreaStart): void | Promise<void>;
  /** At stop, in reverse list order (what comes after it has closed). */
  close?(): void | Promise<void>;
}

/** Checks an area's contract and keeps the rest of what its constructor answers (services other areas use). */
export function defineArea<T extends Area>(area: T): T {
  return area;
}

import type { Language } from './api/system/system.ts';

/**
 * The registry of core apps: the apps built into the desktop, with ids under `org.service.*`.
 * Plain data, read by the daemon (who may open what, who may notify), the web (start menu,
 * windows) and the permission catalog. Add later core apps here.
 */

/** Core app ids live under this prefix; uploaded packages may never use it. */
export const coreAppPrefix = 'org.service.';

/** Every app id (core or package): reverse-domain, lower case, for example `org.service.files`. */
export const appIdPattern = /^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/;
export const appIdMaxLength = 128;

/**
 * The right a core app needs: `user` is held by every signed-in user, `admin` only by
 * administrators; any other name is a special right of the permission catalog.
 */
export type AppRight = 'user' | 'admin' | (string & {});

export interface WindowSize {
  width: number;
  height: number;
}

export interface CoreApp {
  id: `org.service.${string}`;
  /** Icon name of the web desktop's icon set. */
  icon: string;
  title: Record<Language, string>;
  right: AppRight;
  /** Size of a first window, before the user's window preference exists. */
  defaultWindow: WindowSize;
}

export const coreApps: readonly CoreApp[] = [
  {
    id: 'org.service.files',
    icon: 'folder',
    title: { en: 'Files', de: 'Dateien' },
    right: 'user',
    defaultWindow: { width: 960, height: 640 },
  },
  {
    id: 'org.service.control-panel',
    icon: 'settings',
    title: { en: 'Control Panel', de: 'Systemsteuerung' },
    right: 'admin',
    defaultWindow: { width: 1024, height: 700 },
  },
  {
    id: 'org.service.storage-manager',
    icon: 'hard-drive',
    title: { en: 'Storage Manager', de: 'Speicherverwaltung' },
    right: 'admin',
    defaultWindow: { width: 1024, height: 700 },
  },
  {
    id: 'org.service.logs',
    icon: 'scroll-text',
    title: { en: 'Logs', de: 'Protokolle' },
    right: 'admin',
    defaultWindow: { width: 1100, height: 680 },
  },
  {
    id: 'org.service.app-center',
    icon: 'store',
    title: { en: 'App Center', de: 'App-Center' },
    right: 'admin',
    defaultWindow: { width: 1024, height: 720 },
  },
  {
    id: 'org.service.overview',
    icon: 'activity',
    title: { en: 'Overview', de: 'Übersicht' },
    right: 'admin',
    defaultWindow: { width: 900, height: 680 },
  },
];

const byId = new Map<string, CoreApp>(coreApps.map((app) => [app.id, app]));

/** The core app of an id, or undefined for anything else (third-party apps, typos). */
export function findCoreApp(appId: string): CoreApp | undefined {
  return byId.get(appId);
}

/** What deciding "may this user open the app" needs to know of the caller. */
export interface AppCaller {
  admin: boolean;
  rights: ReadonlySet<string>;
}

/** Administrators open every core app; others those whose right they hold (`user`: everybody). */
export function mayOpenCoreApp(app: CoreApp, caller: AppCaller): boolean {
  if (caller.admin) return true;
  if (app.right === 'user') return true;
  if (app.right === 'admin') return false;
  return caller.rights.has(app.right);
}

/** The core apps a caller may open, in registry order (the start menu's order). */
export function coreAppsFor(caller: AppCaller): CoreApp[] {
  return coreApps.filter((app) => mayOpenCoreApp(app, caller));
}

import { getContext, setContext } from 'svelte';
import type { UserInfo } from '../../../shared/src/api/identity/auth.ts';
import { defaultAppearance, type Appearance, type DesktopApp, type DesktopState } from '../../../shared/src/api/desktop/desktop.ts';
import { topicName, type DesktopEvent, type DesktopSnapshot } from '../../../shared/src/topics.ts';
import { api } from '../lib/api.ts';
import { i18n, t } from '../lib/i18n/i18n.svelte.ts';
import { live } from '../lib/live.ts';
import { applyAppearance } from './appearance.ts';
import { builtinApps } from './builtin-apps.ts';
import { deviceId, loadDesktop } from './desktop-api.ts';
import { IconStore } from './icons/icon-store.svelte.ts';
import { JobStore } from './tray/job-store.svelte.ts';
import { NotificationStore } from './tray/notification-store.svelte.ts';
import { parseAppPath } from './windows/url-state.ts';
import { WindowManager } from './windows/window-manager.svelte.ts';

const fallbackSize = { width: 900, height: 620 };

/** Everything the desktop's parts share: the user's apps, appearance, icons, windows, notifications and jobs. */
export class DesktopShell {
  apps = $state<DesktopApp[]>([]);
  appearance = $state<Appearance>(defaultAppearance);
  loaded = $state(false);
  readonly wm: WindowManager;
  readonly icons = new IconStore((state) => this.take(state));
  readonly notifications = new NotificationStore();
  readonly jobs = new JobStore();

  constructor(readonly user: UserInfo) {
    this.wm = new WindowManager({
      defaultSize: (appId) => this.apps.find((a) => a.id === appId)?.defaultWindow ?? builtinApps[appId]?.defaultWindow ?? fallbackSize,
      savePreference: (appId, preference) => {
        api.desktop.setWindowPreference({ params: { appId }, body: preference }).catch((err: unknown) => console.warn('window preference not saved', err));
      },
    });
  }

  /** Loads the desktop and starts the live parts; answers the function that stops them. */
  start(): () => void {
    const stops = [
      this.notifications.start(),
      this.jobs.start(),
      // A grant change reaches the start menu at once: the apps are read again.
      live.subscribe('userGrants', topicName.userGrants(this.user.id), { event: () => void this.refreshApps() }),
      live.subscribe('desktop', topicName.desktop, { snapshot: (snapshot) => this.catchUp(snapshot), event: (event) => this.applyDesktopEvent(event) }),
    ];
    return () => stops.forEach((stop) => stop());
  }

  async load(): Promise<void> {
    const state = await loadDesktop();
    this.take(state);
    this.wm.setPreferences(state.windowPreferences);
    this.icons.load(state);
    this.loaded = true;
  }

  async refreshApps(): Promise<void> {
    this.take(await loadDesktop());
  }

  async setAppearance(appearance: Appearance): Promise<void> {
    await api.desktop.setAppearance({ body: appearance });
    this.appearance = appearance;
    applyAppearance(appearance);
  }

  /** Core apps in the user's language; the desktop's own pseudo-apps through their message keys. */
  appTitle(appId: string): string {
    const app = this.apps.find((a) => a.id === appId);
    if (app) return app.title[i18n.language];
    const builtin = builtinApps[appId];
    return builtin ? t(builtin.titleKey) : appId;
  }

  appIcon(appId: string): string {
    return this.apps.find((a) => a.id === appId)?.icon ?? builtinApps[appId]?.icon ?? 'app';
  }

  mayOpen(appId: string): boolean {
    return appId in builtinApps || this.apps.some((a) => a.id === appId);
  }

  openApp(appId: string, route = ''): void {
    // An app already open at the same place comes forward instead of opening twice.
    const open = this.wm.windows.find((w) => w.appId === appId && w.route === route);
    if (open) this.wm.focus(open.id);
    else this.wm.open(appId, route);
  }

  /** Opens a desktop link (`/app/<appId>/<route>`) of a notification; other links are ignored. */
  openLink(link: string): boolean {
    const ref = parseAppPath(link.split('?')[0] ?? '');
    if (!ref) return false;
    this.openApp(ref.appId, ref.route);
    return true;
  }

  /** What another tab or device changed: shown at once, without a reload of the page. */
  private applyDesktopEvent(event: DesktopEvent): void {
    switch (event.type) {
      case 'item.created':
      case 'item.changed':
      case 'item.deleted':
        return this.icons.applyItemEvent(event);
      case 'appearance.changed':
        this.appearance = event.data;
        return applyAppearance(event.data);
      case 'window.changed':
        return this.wm.setPreference(event.data);
      case 'layout.saved':
        // Each device keeps its own layout: only another tab of this one matters.
        if (event.data.deviceId === deviceId()) this.icons.layoutSaved(event.data.version);
    }
  }

  /**
   * The topic's snapshot, on the first subscription and again after every reconnect: whatever
   * changed while this tab was not listening is applied as if its events had come.
   */
  private catchUp(snapshot: DesktopSnapshot): void {
    this.appearance = snapshot.appearance;
    applyAppearance(snapshot.appearance);
    this.wm.setPreferences(snapshot.windowPreferences);
    this.icons.catchUp(snapshot.items);
    const layoutVersion = snapshot.layoutVersions[deviceId()];
    if (layoutVersion !== undefined) this.icons.layoutSaved(layoutVersion);
  }

  private take(state: DesktopState): void {
    this.apps = state.apps;
    this.appearance = state.appearance;
    applyAppearance(state.appearance);
  }
}

const key = Symbol('desktop-shell');

export function provideShell(shell: DesktopShell): void {
  setContext(key, shell);
}

export function useShell(): DesktopShell {
  const shell = getContext<DesktopShell | undefined>(key);
  if (!shell) throw new Error('useShell outside the desktop');
  return shell;
}

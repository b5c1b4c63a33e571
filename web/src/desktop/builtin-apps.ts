import type { Component } from 'svelte';
import type { AppProps } from '../apps/app-props.ts';
import type { MessageKey } from '../lib/i18n/messages.ts';

/** Personal settings: appearance, keyboard help, password, two-step sign-in (panels in settings/panels.ts). */
export const personalSettingsAppId = 'org.service.settings';

export interface BuiltinApp {
  icon: string;
  titleKey: MessageKey;
  defaultWindow: { width: number; height: number };
  load: () => Promise<{ default: Component<AppProps> }>;
}

/** Pseudo-apps of the desktop itself, which every signed-in user may open (outside the core app registry). */
export const builtinApps: Record<string, BuiltinApp> = {
  [personalSettingsAppId]: {
    icon: 'settings',
    titleKey: 'desktopSettings.personal',
    defaultWindow: { width: 760, height: 560 },
    load: () => import('./settings/SettingsApp.svelte'),
  },
};

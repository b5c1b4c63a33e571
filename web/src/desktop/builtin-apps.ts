import type { Component } from 'svelte';
import type { AppProps } from '../apps/app-props.ts';
import type { MessageKey } from '../lib/i18n/messages.ts';

/** The personal settings: a desktop-owned pseudo-app every user may open (not in the core app registry). */
export const settingsAppId = 'org.service.settings';

export interface BuiltinApp {
  icon: string;
  titleKey: MessageKey;
  defaultWindow: { width: number; height: number };
  load: () => Promise<{ default: Component<AppProps> }>;
}

export const builtinApps: Record<string, BuiltinApp> = {
  [settingsAppId]: {
    icon: 'palette',
    titleKey: 'settings.title',
    defaultWindow: { width: 620, height: 520 },
    load: () => import('./settings/SettingsApp.svelte'),
  },
};

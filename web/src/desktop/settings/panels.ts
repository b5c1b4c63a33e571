import type { Component } from 'svelte';
import type { AppProps } from '../../apps/app-props.ts';
import type { MessageKey } from '../../lib/i18n/messages.ts';

/**
 * The panels of the personal settings window (`/app/org.service.settings/<panel id>`), in
 * order: the desktop's own and those of other features (password, two-step sign-in). A feature
 * adds its panel with one entry here; each panel is a lazily loaded component taking the
 * window's AppProps (`route` is the whole settings route, starting with the panel id).
 */
export interface SettingsPanel {
  id: string;
  titleKey: MessageKey;
  icon: string;
  load: () => Promise<{ default: Component<AppProps> }>;
}

export const settingsPanels: SettingsPanel[] = [
  { id: 'appearance', titleKey: 'desktopSettings.appearance', icon: 'palette', load: () => import('./AppearancePanel.svelte') },
  { id: 'layout', titleKey: 'desktopSettings.layout', icon: 'app', load: () => import('./LayoutPanel.svelte') },
  { id: 'keyboard', titleKey: 'desktopSettings.keyboard', icon: 'keyboard', load: () => import('./KeyboardPanel.svelte') },
  { id: 'language', titleKey: 'account.section.language', icon: 'globe', load: () => import('../../apps/personal-settings/LanguagePanel.svelte') },
  { id: 'password', titleKey: 'account.section.password', icon: 'key', load: () => import('../../apps/personal-settings/PasswordPanel.svelte') },
  { id: 'two-step', titleKey: 'account.section.twoStep', icon: 'shield', load: () => import('../../apps/personal-settings/TwoStepPanel.svelte') },
];

import type { Component } from 'svelte';
import type { AppProps } from '../../apps/app-props.ts';
import type { MessageKey } from '../../lib/i18n/messages.ts';

/**
 * The panels of the personal settings window (`/app/org.service.settings/<panel id>`), in
 * order. Another feature adds its panel with one entry here (for example password and
 * two-step sign-in); each panel is its own lazily loaded component taking AppProps.
 */
export interface SettingsPanel {
  id: string;
  titleKey: MessageKey;
  icon: string;
  load: () => Promise<{ default: Component<AppProps> }>;
}

export const settingsPanels: SettingsPanel[] = [
  { id: 'appearance', titleKey: 'settings.appearance', icon: 'palette', load: () => import('./AppearancePanel.svelte') },
  { id: 'keyboard', titleKey: 'settings.keyboard', icon: 'keyboard', load: () => import('./KeyboardPanel.svelte') },
];

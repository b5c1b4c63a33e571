import type { Component } from 'svelte';
import type { AppProps } from './app-props.ts';

/**
 * The component of each core app (ids from shared/src/apps.ts), loaded on first open so the
 * desktop's initial JavaScript stays small. An app adds one line here.
 */
export const appComponents: Partial<Record<string, () => Promise<{ default: Component<AppProps> }>>> = {
  'org.service.files': () => import('./files/FilesApp.svelte'),
  'org.service.control-panel': () => import('./control-panel/ControlPanel.svelte'),
  'org.service.logs': () => import('./logs/LogsApp.svelte'),
  'org.service.storage-manager': () => import('./storage-manager/StorageManager.svelte'),
  'org.service.app-center': () => import('./app-center/AppCenter.svelte'),
  'org.service.overview': () => import('./overview/OverviewApp.svelte'),
};

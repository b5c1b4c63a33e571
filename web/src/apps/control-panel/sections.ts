import type { Component } from 'svelte';
import type { UserInfo } from '../../../../shared/src/api/identity/auth.ts';
import type { MessageKey } from '../../lib/i18n/messages.ts';

/** What the Control Panel gives each section component. */
export interface SectionProps {
  user: UserInfo;
  /** The section's own sub-route: the part of `/app/org.service.control-panel/<section>/...` after the section. */
  route: string;
  /** Changes the section's sub-route. */
  navigate(route: string): void;
  /** Opens another section, e.g. the Permissions of a user from the Users list. */
  openSection(section: string, route?: string): void;
  /** Opens another app's window. */
  openApp(appId: string, route?: string): void;
}

export interface ControlPanelSection {
  /** The first part of the window route. */
  id: string;
  label: MessageKey;
  load: () => Promise<{ default: Component<SectionProps> }>;
}

/**
 * The sections in sidebar order, each loaded when first opened. A new section (Shares, Homes, ...)
 * is one component file taking SectionProps and one line here, plus its label in the app's i18n.
 */
export const sections: readonly ControlPanelSection[] = [
  { id: 'users', label: 'controlPanel.section.users', load: () => import('./users/UsersSection.svelte') },
  { id: 'groups', label: 'controlPanel.section.groups', load: () => import('./groups/GroupsSection.svelte') },
  { id: 'permissions', label: 'controlPanel.section.permissions', load: () => import('./permissions/PermissionsSection.svelte') },
  { id: 'shares', label: 'controlPanel.section.shares', load: () => import('./shares/SharesSection.svelte') },
  { id: 'homes', label: 'controlPanel.section.homes', load: () => import('./homes/HomesSection.svelte') },
  { id: 'region', label: 'controlPanel.section.region', load: () => import('./region/RegionSection.svelte') },
  { id: 'certificates', label: 'controlPanel.section.certificates', load: () => import('./certificates/CertificatesSection.svelte') },
  { id: 'network', label: 'controlPanel.section.network', load: () => import('./network/NetworkSection.svelte') },
  { id: 'proxy', label: 'controlPanel.section.proxy', load: () => import('./proxy/ProxySection.svelte') },
  { id: 'time', label: 'controlPanel.section.time', load: () => import('./time/TimeSection.svelte') },
  { id: 'power', label: 'controlPanel.section.power', load: () => import('./power/PowerSection.svelte') },
  { id: 'backup', label: 'controlPanel.section.backup', load: () => import('./backup/BackupSection.svelte') },
  { id: 'updates', label: 'controlPanel.section.updates', load: () => import('./updates/UpdatesSection.svelte') },
];

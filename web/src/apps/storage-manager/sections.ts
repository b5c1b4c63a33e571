import type { MessageKey } from '../../lib/i18n/messages.ts';

/** The Storage Manager's sections in their order; StorageManager.svelte gives each its view, the screenshot walk opens each. */
export const storageSections = [
  { id: 'overview', label: 'storage.section.overview' },
  { id: 'disks', label: 'storage.section.disks' },
  { id: 'create', label: 'storage.section.create' },
  { id: 'import', label: 'storage.section.import' },
  { id: 'schedules', label: 'storage.section.schedules' },
  { id: 'snapshots', label: 'storage.section.snapshots' },
  { id: 'alerts', label: 'storage.section.alerts' },
] as const satisfies readonly { id: string; label: MessageKey }[];

export type StorageSectionId = (typeof storageSections)[number]['id'];

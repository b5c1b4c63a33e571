/**
 * What the wizard reads of the installer's answers, written against spec 4.13 before the daemon
 * side existed: every field optional, so a differing answer shows less instead of breaking. To be
 * replaced by the types of shared/src/api/installer.ts once both branches meet.
 */
export interface InstallerStatusView {
  state?: 'waiting' | 'claimed' | 'installing' | 'done' | 'failed';
  /** The short code the box's screen shows after a claim. */
  code?: string;
  progress?: { done: number; total: number } | null;
  reason?: string | null;
}

export interface InstallerOptionsView {
  disks?: { path: string; model?: string; sizeBytes?: number; guard?: { allowed: boolean; reason?: string } }[];
  languages?: string[];
  regions?: string[];
  timeZones?: string[];
  defaultNetwork?: unknown;
  defaultBoxName?: string;
}

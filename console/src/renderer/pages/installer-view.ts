/**
 * What the wizard reads of the installer's answers and sends it: the shapes of the installer
 * branch's shared/src/api/installer-schemas.ts (InstallerStatus, InstallerOptions,
 * NetworkTestStatus, InstallRequest), mirrored here only until both branches meet; then these
 * give way to imports from there.
 */
export interface InstallerStatusView {
  state: 'waiting' | 'claimed' | 'installing' | 'done' | 'failed';
  /** Only in the answer to the claim: the code the box's screen shows. */
  claimCode?: string;
  progress: { done: number; total: number; step: string } | null;
  failure: { code: string; detail: string; step: string | null } | null;
}

export interface InstallerNetworkView {
  interface: string;
  method: 'dhcp' | 'static';
  address: string | null;
  gateway: string | null;
  nameservers: string[];
}

export interface InstallerOptionsView {
  disks: { name: string; path: string; sizeBytes: number; model: string | null; usable: boolean; reasons: { reason: string; detail: string }[] }[];
  fileSystems: ('ext4' | 'zfs')[];
  languages: string[];
  regions: string[];
  timeZones: string[];
  defaultNetwork: InstallerNetworkView | null;
}

export interface NetworkTestView {
  state: 'idle' | 'running' | 'passed' | 'failed';
  checks: { check: 'gateway' | 'dns' | 'registry'; state: string; detail: string | null }[];
}

export interface InstallRequestView {
  disk: string;
  fileSystem: 'ext4' | 'zfs';
  boxName: string;
  admin: { username: string; password: string };
  language: string;
  region: string | null;
  timeZone: string;
  network: InstallerNetworkView | null;
}

import Joi from 'joi';
import { newPassword } from '../identity/auth.ts';
import { isoTime } from '../common.ts';
import { hostAddress } from '../network/ip-address.ts';
import type { DiskVerdictReason } from '../storage/pools.ts';
import { languages, type Language } from '../system/system.ts';
import { timeZonePattern } from '../system/time.ts';
import { accountName } from '../identity/users.ts';

/**
 * The installer's states: `waiting` for a console to claim it, `claimed` by one console (its
 * secret opens every other installer call until the claim lapses), `installing` with progress,
 * `done` (reboot into the installed system) or `failed` with the step and the reason.
 */
export type InstallerState = 'waiting' | 'claimed' | 'installing' | 'done' | 'failed';

/** The system file system: ext4 on a partition, or a ZFS pool (needs ZFS on the medium). */
export type SystemFileSystem = 'ext4' | 'zfs';

export interface InstallIdResponse {
  /** Made once at installation; the console tells a reinstalled box from the one it knew. */
  installId: string;
  installedAt: string;
}

export interface InstallPlan {
  disk: string;
  fileSystem: SystemFileSystem;
  /** The exact commands, as argument arrays, in the order they run. */
  commands: string[][];
  /** Files the installer writes on the target, by their path in the installed system. */
  files: string[];
}

export interface InstallerProgress {
  done: number;
  total: number;
  unit: 'steps';
  /** What runs now, in English. */
  step: string;
}

export interface InstallerFailure {
  /** An error code of the catalog, or `installer.step.failed`. */
  code: string;
  detail: string;
  step: string | null;
}

/**
 * The fingerprint of the medium's HTTPS key: SHA-256 over its public key (SubjectPublicKeyInfo,
 * DER). The box's screen shows `short` beside the claim's code; the console pins `sha256`.
 */
export interface InstallerKeyFingerprint {
  /** 64 lowercase hex digits. */
  sha256: string;
  /** The first 80 bits in five groups of four uppercase hex digits, as the screen shows them: `3F2A 9C01 77B4 E0D2 5A6F`. */
  short: string;
}

/** The installed box's root certificate, made during the installation: the console pins it for the box. */
export interface InstalledRoot {
  /** PEM. */
  certificate: string;
  /** SHA-256 over the certificate, colon-separated upper-case hex, as the box's TLS settings and devices show it. */
  sha256Fingerprint: string;
}

export interface InstallerStatus {
  state: InstallerState;
  version: string;
  /** The key the medium serves HTTPS with, made at its start. */
  fingerprint: InstallerKeyFingerprint;
  /** When the claim lapses unless the claimer calls again; null while nobody holds it. */
  claimExpiresAt: string | null;
  /** Only in the answer to the claim: the secret for the `X-Installer-Claim` header of every later call. */
  claimSecret?: string;
  /** Only in the answer to the claim: the short code the box's screen shows, for the owner to compare. */
  claimCode?: string;
  plan: InstallPlan | null;
  progress: InstallerProgress | null;
  failure: InstallerFailure | null;
  /** Once the installation made it (state `done`): the installed box's root, read by the console over its pinned connection. */
  installedRoot: InstalledRoot | null;
}

export interface InstallerDisk {
  name: string;
  path: string;
  sizeBytes: number;
  model: string | null;
  /** The Storage area's disk guard allows it (and it is large enough for the system). */
  usable: boolean;
  reasons: DiskVerdictReason[];
}

/** A configuration of one network card: DHCP, or a static address in CIDR form with gateway and name servers. */
export interface InstallerNetworkConfig {
  interface: string;
  method: 'dhcp' | 'static';
  address: string | null;
  gateway: string | null;
  nameservers: string[];
}

export interface InstallerOptions {
  disks: InstallerDisk[];
  /** Smallest system disk the installer accepts. */
  minDiskBytes: number;
  fileSystems: SystemFileSystem[];
  languages: Language[];
  /** ISO 3166-1 alpha-2 codes. */
  regions: string[];
  timeZones: string[];
  /** What the medium's network is now (the card of the default route); null without one. */
  defaultNetwork: InstallerNetworkConfig | null;
}

export type NetworkCheckName = 'gateway' | 'dns' | 'registry';

export interface NetworkCheck {
  check: NetworkCheckName;
  state: 'pending' | 'running' | 'passed' | 'failed' | 'skipped';
  detail: string | null;
}

export interface NetworkTestStatus {
  state: 'idle' | 'running' | 'passed' | 'failed';
  config: InstallerNetworkConfig | null;
  checks: NetworkCheck[];
  startedAt: string | null;
  finishedAt: string | null;
}

export interface InstallRequest {
  disk: string;
  fileSystem: SystemFileSystem;
  boxName: string;
  admin: { username: string; password: string };
  language: Language;
  region: string | null;
  timeZone: string;
  /** The installed system's network; null keeps DHCP on every card. */
  network: InstallerNetworkConfig | null;
}

const diskReason = Joi.object<DiskVerdictReason, true>({
  reason: Joi.string().valid('systemDisk', 'mounted', 'inPool', 'signature', 'partitioned', 'tooSmall', 'readOnly').required(),
  detail: Joi.string().allow('').required(),
});

export const installIdResponse = Joi.object<InstallIdResponse, true>({ installId: Joi.string().required(), installedAt: isoTime().required() }).id(
  'InstallIdResponse',
);

const installPlan = Joi.object<InstallPlan, true>({
  disk: Joi.string().required(),
  fileSystem: Joi.string().valid('ext4', 'zfs').required(),
  commands: Joi.array().items(Joi.array().items(Joi.string())).required(),
  files: Joi.array().items(Joi.string()).required(),
}).id('InstallPlan');

const installerKeyFingerprint = Joi.object<InstallerKeyFingerprint, true>({
  sha256: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .required(),
  short: Joi.string()
    .pattern(/^[0-9A-F]{4}( [0-9A-F]{4}){4}$/)
    .required(),
}).id('InstallerKeyFingerprint');

export const installerStatus = Joi.object<InstallerStatus, true>({
  state: Joi.string().valid('waiting', 'claimed', 'installing', 'done', 'failed').required(),
  version: Joi.string().required(),
  fingerprint: installerKeyFingerprint.required(),
  claimExpiresAt: isoTime().allow(null).required(),
  claimSecret: Joi.string(),
  claimCode: Joi.string(),
  plan: installPlan.allow(null).required(),
  progress: Joi.object<InstallerProgress, true>({
    done: Joi.number().integer().min(0).required(),
    total: Joi.number().integer().min(0).required(),
    unit: Joi.string().valid('steps').required(),
    step: Joi.string().required(),
  })
    .allow(null)
    .required(),
  failure: Joi.object<InstallerFailure, true>({
    code: Joi.string().required(),
    detail: Joi.string().allow('').required(),
    step: Joi.string().allow(null).required(),
  })
    .allow(null)
    .required(),
  installedRoot: Joi.object<InstalledRoot, true>({
    certificate: Joi.string().required(),
    sha256Fingerprint: Joi.string()
      .pattern(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/)
      .required(),
  })
    .id('InstalledRoot')
    .allow(null)
    .required(),
}).id('InstallerStatus');

const interfaceName = () => Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,15}$/);
const ip = () => hostAddress('forbidden');

export const installerNetworkConfig = Joi.object<InstallerNetworkConfig, true>({
  interface: interfaceName().required(),
  method: Joi.string().valid('dhcp', 'static').required(),
  // A static configuration names its address; DHCP names neither address nor gateway.
  address: hostAddress('required')
    .allow(null)
    .required()
    .when('method', { is: 'static', then: Joi.invalid(null), otherwise: Joi.valid(null) }),
  gateway: ip()
    .allow(null)
    .required()
    .when('method', { is: 'dhcp', then: Joi.valid(null) }),
  nameservers: Joi.array().items(ip()).max(4).unique().required(),
}).id('InstallerNetworkConfig');

export const installerOptions = Joi.object<InstallerOptions, true>({
  disks: Joi.array()
    .items(
      Joi.object<InstallerDisk, true>({
        name: Joi.string().required(),
        path: Joi.string().required(),
        sizeBytes: Joi.number().integer().min(0).required(),
        model: Joi.string().allow(null).required(),
        usable: Joi.boolean().required(),
        reasons: Joi.array().items(diskReason).required(),
      }),
    )
    .required(),
  minDiskBytes: Joi.number().integer().min(0).required(),
  fileSystems: Joi.array().items(Joi.string().valid('ext4', 'zfs')).required(),
  languages: Joi.array()
    .items(Joi.string().valid(...languages))
    .required(),
  regions: Joi.array().items(Joi.string()).required(),
  timeZones: Joi.array().items(Joi.string()).required(),
  defaultNetwork: installerNetworkConfig.allow(null).required(),
}).id('InstallerOptions');

export const networkTestStatus = Joi.object<NetworkTestStatus, true>({
  state: Joi.string().valid('idle', 'running', 'passed', 'failed').required(),
  config: installerNetworkConfig.allow(null).required(),
  checks: Joi.array()
    .items(
      Joi.object<NetworkCheck, true>({
        check: Joi.string().valid('gateway', 'dns', 'registry').required(),
        state: Joi.string().valid('pending', 'running', 'passed', 'failed', 'skipped').required(),
        detail: Joi.string().allow(null).required(),
      }),
    )
    .required(),
  startedAt: isoTime().allow(null).required(),
  finishedAt: isoTime().allow(null).required(),
}).id('NetworkTestStatus');

export const installRequest = Joi.object<InstallRequest, true>({
  disk: Joi.string()
    .pattern(/^[A-Za-z0-9_.:-]{1,128}$/)
    .required(),
  fileSystem: Joi.string().valid('ext4', 'zfs').required(),
  boxName: Joi.string().trim().min(1).max(64).required(),
  admin: Joi.object({ username: accountName().required(), password: newPassword().required() }).required(),
  language: Joi.string()
    .valid(...languages)
    .required(),
  region: Joi.string()
    .pattern(/^[A-Z]{2}$/)
    .allow(null)
    .required(),
  timeZone: Joi.string().max(64).pattern(timeZonePattern).required(),
  network: installerNetworkConfig.allow(null).required(),
}).id('InstallRequest');

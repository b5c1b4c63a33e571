import Joi from 'joi';
import { isoTime } from '../common.ts';
import { pendingNetworkChange, type PendingNetworkChange } from '../network/network.ts';
import { defineRoute } from '../route.ts';

/** Configuration backup (spec 4.14): one file encrypted with a password, inspected, then restored part by part. */

/** Part names a box of this version writes and restores, in restore order (docs/backup-format.md). */
export const backupPartNames = ['users', 'groups', 'permissions', 'shares', 'storage', 'region', 'ssh', 'tls', 'apps', 'proxy', 'store', 'network'] as const;
export type BackupPartName = (typeof backupPartNames)[number];

/** An inspected backup is kept this long, for the administrator who inspected it only. */
export const backupKeptMinutes = 15;
/** A base64 body of the largest file a reader accepts (32 MiB). */
const inspectBodyLimit = 44 * 1024 * 1024;

export interface CreateBackupRequest {
  /** Follows the password rules of users (auth.password.weak). */
  password: string;
}

export interface InspectBackupRequest {
  password: string;
  /** The backup file, base64. */
  backup: string;
}

/** What a part can count; the desktop names each in words with its plural ("1 group", "2 groups"). */
export const backupCountKinds = [
  'users',
  'administrators',
  'secondFactors',
  'groups',
  'memberships',
  'grants',
  'shares',
  'homes',
  'shareGrants',
  'schedules',
  'settings',
  'hostKeys',
  'apps',
  'storageMappings',
  'authority',
  'customCertificates',
  'issuedCertificates',
  'hosts',
  'redirects',
  'streams',
  'catalogs',
  'interfaces',
  'bonds',
  'vlans',
  'nameServers',
] as const;
export type BackupCountKind = (typeof backupCountKinds)[number];
export type BackupCounts = Partial<Record<BackupCountKind, number>>;

export interface BackupPartSummary {
  name: string;
  /** What the part holds, by kind (users, groups, grants, ...). */
  counts: BackupCounts;
  /** Whether this box can restore the part (false for a part of a newer version). */
  restorable: boolean;
  /** What a restore of the part onto this box would leave out, by name (apps it has not installed); absent when nothing. */
  skipped?: string[];
}

/** A share of the backup whose dataset (or folder) this box does not have. */
export interface MissingDataset {
  name: string;
  dataset: string | null;
  hostPath: string;
}

export interface BackupSummary {
  backupId: string;
  createdAt: string;
  box: { name: string; version: string };
  parts: BackupPartSummary[];
  /** Shares that would have no dataset here: the box's pools differ from the backed-up one's. */
  sharesWithoutDataset: MissingDataset[];
  expiresAt: string;
}

/** Entries of one restored part that were not applied, by name (an app this box has not installed). */
export interface SkippedByPart {
  part: BackupPartName;
  names: string[];
}

export interface RestoreBackupRequest {
  backupId: string;
  parts: BackupPartName[];
}

export interface RestoreResult {
  restored: BackupPartName[];
  /** Restoring users ends every session, the caller's too. */
  signedOut: boolean;
  sharesWithoutDataset: MissingDataset[];
  /** Parts whose rows were restored but whose host effects (accounts, Samba, files) failed; the log says which command. */
  hostFailed: BackupPartName[];
  /** What a restored part left out because this box lacks it (apps not installed here, by name); only parts that left something out. */
  skipped: SkippedByPart[];
  /**
   * The restored network configuration, applied as a change that rolls back at its deadline unless
   * confirmed (POST /api/system/network/changes/{changeId}/confirm); null when the network part was
   * not restored or the box has that configuration already. It gives no follow token.
   */
  networkChange: PendingNetworkChange | null;
  /** The daemon restarts right after this answer; pages reconnect. */
  restarting: true;
}

const password = () => Joi.string().min(1).max(1024);
const missingDataset = Joi.object<MissingDataset, true>({
  name: Joi.string().required(),
  dataset: Joi.string().allow(null).required(),
  hostPath: Joi.string().required(),
}).id('MissingDataset');

export const backupSummarySchema = Joi.object<BackupSummary, true>({
  backupId: Joi.string().required(),
  createdAt: Joi.string().required(),
  box: Joi.object({ name: Joi.string().allow('').required(), version: Joi.string().allow('').required() }).required(),
  parts: Joi.array()
    .items(
      Joi.object<BackupPartSummary, true>({
        name: Joi.string().required(),
        counts: Joi.object().pattern(Joi.string(), Joi.number().integer().min(0)).required(),
        restorable: Joi.boolean().required(),
        skipped: Joi.array().items(Joi.string()),
      }),
    )
    .required(),
  sharesWithoutDataset: Joi.array().items(missingDataset).required(),
  expiresAt: isoTime().required(),
}).id('BackupSummary');

const fileErrors = [
  'backup.file.not_backup',
  'backup.file.version_unsupported',
  'backup.file.parameters_refused',
  'backup.file.damaged',
  'backup.file.too_large',
  'backup.password.wrong',
  'backup.part.invalid',
  'backup.ssh.key_invalid',
  'backup.share.folder_refused',
  'backup.account.reserved',
  'backup.group.built_in',
  'fs.path.invalid',
  'tls.domain.public',
  'proxy.domain.taken',
  'proxy.port.taken',
  'store.catalog.url_refused',
  'store.catalog.exists',
  'network.hostname.invalid',
  'network.subnet.overlap',
  'network.gateway.outside_subnet',
  'network.vlan.parent_missing',
  'network.interface.locked',
  'network.interface.duplicate',
  'network.bond.member_invalid',
  'host.tool.missing',
] as const;

export const backupRoutes = {
  create: defineRoute({
    id: 'system.backup',
    method: 'POST',
    path: '/api/system/backup',
    access: 'admin',
    summary: "Downloads the box's configuration as one file encrypted with the password; files on pools are excluded",
    description:
      'Users (password hashes, second factors, uids), groups, grants, shares with their file services settings, storage schedules, regional settings, SSH host keys, the apps’ settings, the reverse proxy’s hosts, redirects and streams, the Store’s settings and catalogs, and the confirmed network configuration (host name, name servers, cards, bonds, VLANs; never a change awaiting confirmation). The password follows the password rules of users. Format: docs/backup-format.md.',
    body: Joi.object<CreateBackupRequest, true>({ password: password().required() }).id('CreateBackupRequest'),
    status: 200,
    response: { raw: true, contentType: 'application/octet-stream' },
    errors: ['auth.password.weak'],
  }),
  inspect: defineRoute({
    id: 'system.inspectBackup',
    method: 'POST',
    path: '/api/system/backup/inspect',
    access: 'admin',
    summary: 'Decrypts a backup and checks every part; keeps it 15 minutes for restore by the same administrator',
    body: Joi.object<InspectBackupRequest, true>({
      password: password().required(),
      backup: Joi.string().base64().max(inspectBodyLimit).required(),
    }).id('InspectBackupRequest'),
    bodyLimit: inspectBodyLimit + 4096,
    status: 200,
    response: backupSummarySchema,
    errors: [...fileErrors, 'request.body.too_large'],
  }),
  restore: defineRoute({
    id: 'system.restoreBackup',
    method: 'POST',
    path: '/api/system/backup/restore',
    access: 'admin',
    summary: 'Replaces the chosen parts of an inspected backup, then restarts the daemon; restoring users signs everybody out',
    description:
      'Rows of the chosen parts are replaced in one database transaction; then host effects are applied again (system accounts with their uids and password hashes, Samba passwords, file services, SSH host keys). The network configuration is never applied directly: it becomes a change awaiting confirmation that rolls itself back after 60 seconds unless confirmed (networkChange), and a restore while another network change awaits confirmation is refused. An interface of the backup that this box does not have is left out and named in skipped. The answer names shares whose dataset this box does not have, and parts whose host effects failed (their rows stay restored; the log names the command).',
    body: Joi.object<RestoreBackupRequest, true>({
      backupId: Joi.string()
        .pattern(/^[0-9a-f]{32}$/, 'backup id')
        .required(),
      parts: Joi.array()
        .items(Joi.string().valid(...backupPartNames))
        .min(1)
        .unique()
        .required(),
    }).id('RestoreBackupRequest'),
    status: 200,
    response: Joi.object<RestoreResult, true>({
      restored: Joi.array()
        .items(Joi.string().valid(...backupPartNames))
        .required(),
      signedOut: Joi.boolean().required(),
      sharesWithoutDataset: Joi.array().items(missingDataset).required(),
      hostFailed: Joi.array()
        .items(Joi.string().valid(...backupPartNames))
        .required(),
      skipped: Joi.array()
        .items(
          Joi.object<SkippedByPart, true>({
            part: Joi.string()
              .valid(...backupPartNames)
              .required(),
            names: Joi.array().items(Joi.string()).required(),
          }).id('SkippedByPart'),
        )
        .required(),
      networkChange: pendingNetworkChange.allow(null).required(),
      restarting: Joi.boolean().valid(true).required(),
    }).id('RestoreResult'),
    errors: ['backup.inspected.not_found', 'backup.part.not_in_backup', 'backup.part.invalid', 'backup.restore.running', 'network.change.pending'],
  }),
};

import Joi from 'joi';
import { id } from '../common.ts';
import { defineRoute } from '../route.ts';

/** What a user may do in a share: the union of own and group grants. */
export type ShareAccess = 'none' | 'read' | 'readWrite';
export type GrantLevel = 'read' | 'readWrite';
export type GrantSubjectType = 'user' | 'group';
/** Every share is a plain host folder until the Storage issue brings dataset shares. */
export type ShareKind = 'folder' | 'dataset';

export interface ShareInfo {
  id: number;
  name: string;
  description: string;
  kind: ShareKind;
  /** The caller's access; administrators always have readWrite. */
  access: Exclude<ShareAccess, 'none'>;
  /** The folder on the host; only administrators see it (null for everybody else). */
  hostPath: string | null;
  /** Free space of the file system holding the share, null when it cannot be read. */
  availableBytes: number | null;
}

export interface ShareDetails extends Omit<ShareInfo, 'access'> {
  /** ZFS dataset of the share; null for folder shares. */
  dataset: string | null;
  smbEnabled: boolean;
  /** SMB clients must encrypt. */
  smbEncrypt: boolean;
  sftpEnabled: boolean;
  /** Daily snapshots kept 7 days; only for dataset shares. */
  restorePoints: boolean;
  /** Days deleted entries stay in the recycle bin; 0 keeps them until emptied. */
  trashRetentionDays: number;
  /** Number of active users who may read (read only) and who may read and write. */
  readers: number;
  writers: number;
}

export interface NewShare {
  name: string;
  description?: string;
  /** Absolute path of an existing folder on the host. */
  hostPath: string;
  /** Offered over SMB; on unless the client says otherwise. */
  smbEnabled?: boolean;
  /** Offered over SFTP; on unless the client says otherwise. */
  sftpEnabled?: boolean;
}

export interface ShareUpdate {
  name?: string;
  description?: string;
  smbEnabled?: boolean;
  smbEncrypt?: boolean;
  sftpEnabled?: boolean;
}

export interface ShareGrant {
  subjectType: GrantSubjectType;
  subjectId: number;
  level: GrantLevel;
}

export interface EffectiveShareAccess {
  userId: number;
  username: string;
  admin: boolean;
  active: boolean;
  access: ShareAccess;
}

export interface ShareGrants {
  shareId: number;
  grants: ShareGrant[];
  /** Every user's resulting access, in user name order. */
  effective: EffectiveShareAccess[];
}

export interface ShareGrantsRequest {
  grants: ShareGrant[];
}

export interface RestorePointsRequest {
  enabled: boolean;
}

export interface TrashSettingsRequest {
  retentionDays: number;
}

const shareName = () =>
  Joi.string()
    .trim()
    .min(1)
    .max(80)
    .pattern(/^[^\0/\\]+$/);
const description = () => Joi.string().allow('').max(500);

const shareBase = {
  id: id().required(),
  name: Joi.string().required(),
  description: Joi.string().allow('').required(),
  kind: Joi.string().valid('folder', 'dataset').required(),
  hostPath: Joi.string().allow(null).required(),
  availableBytes: Joi.number().integer().min(0).allow(null).required(),
};

export const shareInfo = Joi.object<ShareInfo, true>({
  ...shareBase,
  access: Joi.string().valid('read', 'readWrite').required(),
}).id('ShareInfo');

export const shareDetails = Joi.object<ShareDetails, true>({
  ...shareBase,
  dataset: Joi.string().allow(null).required(),
  smbEnabled: Joi.boolean().required(),
  smbEncrypt: Joi.boolean().required(),
  sftpEnabled: Joi.boolean().required(),
  restorePoints: Joi.boolean().required(),
  trashRetentionDays: Joi.number().integer().min(0).max(3650).required(),
  readers: Joi.number().integer().min(0).required(),
  writers: Joi.number().integer().min(0).required(),
}).id('ShareDetails');

export const newShare = Joi.object<NewShare, true>({
  name: shareName().required(),
  description: description(),
  hostPath: Joi.string().min(1).max(4096).required(),
  smbEnabled: Joi.boolean().default(true),
  sftpEnabled: Joi.boolean().default(true),
}).id('NewShare');

export const shareUpdate = Joi.object<ShareUpdate, true>({
  name: shareName(),
  description: description(),
  smbEnabled: Joi.boolean(),
  smbEncrypt: Joi.boolean(),
  sftpEnabled: Joi.boolean(),
})
  .min(1)
  .id('ShareUpdate');

export const shareGrant = Joi.object<ShareGrant, true>({
  subjectType: Joi.string().valid('user', 'group').required(),
  subjectId: id().required(),
  level: Joi.string().valid('read', 'readWrite').required(),
}).id('ShareGrant');

export const shareGrants = Joi.object<ShareGrants, true>({
  shareId: id().required(),
  grants: Joi.array().items(shareGrant).required(),
  effective: Joi.array()
    .items(
      Joi.object<EffectiveShareAccess, true>({
        userId: id().required(),
        username: Joi.string().required(),
        admin: Joi.boolean().required(),
        active: Joi.boolean().required(),
        access: Joi.string().valid('none', 'read', 'readWrite').required(),
      }).id('EffectiveShareAccess'),
    )
    .required(),
}).id('ShareGrants');

export const shareGrantsRequest = Joi.object<ShareGrantsRequest, true>({
  // One grant per subject: a second one for the same subject would be ambiguous.
  grants: Joi.array()
    .items(shareGrant)
    .max(10_000)
    .unique((a: ShareGrant, b: ShareGrant) => a.subjectType === b.subjectType && a.subjectId === b.subjectId)
    .required(),
}).id('ShareGrantsRequest');

export const restorePointsRequest = Joi.object<RestorePointsRequest, true>({ enabled: Joi.boolean().required() }).id('RestorePointsRequest');

export const trashSettingsRequest = Joi.object<TrashSettingsRequest, true>({
  retentionDays: Joi.number().integer().min(0).max(3650).required(),
}).id('TrashSettingsRequest');

export const shareIdParams = Joi.object<{ shareId: number }, true>({ shareId: id().required() });

export const sharesRoutes = {
  list: defineRoute({
    id: 'shares.list',
    method: 'GET',
    path: '/api/shares',
    access: 'user',
    summary: "Shares the caller can use with the caller's access; administrators get all with the host path",
    status: 200,
    response: Joi.array<ShareInfo[]>().items(shareInfo),
    errors: [],
  }),
  create: defineRoute({
    id: 'shares.create',
    method: 'POST',
    path: '/api/shares',
    access: 'admin',
    summary: 'Registers an existing host folder as a share (development machines only); only administrators have access until granted',
    body: newShare,
    status: 201,
    response: shareInfo,
    errors: ['fs.share.folder_dev_only', 'fs.share.folder_invalid', 'fs.share.folder_overlaps', 'fs.share.name_taken'],
  }),
  details: defineRoute({
    id: 'shares.details',
    method: 'GET',
    path: '/api/shares/details',
    access: 'admin',
    summary: 'Every share with its settings',
    status: 200,
    response: Joi.array<ShareDetails[]>().items(shareDetails),
    errors: [],
  }),
  update: defineRoute({
    id: 'shares.update',
    method: 'PATCH',
    path: '/api/shares/{shareId}',
    access: 'admin',
    summary: 'Changes the name shown, description, SMB and SFTP offering and SMB encryption',
    params: shareIdParams,
    body: shareUpdate,
    status: 200,
    response: shareDetails,
    errors: ['fs.share.not_found', 'fs.share.name_taken'],
  }),
  grants: defineRoute({
    id: 'shares.grants',
    method: 'GET',
    path: '/api/shares/{shareId}/grants',
    access: 'admin',
    summary: "The share's grants and each user's effective access",
    params: shareIdParams,
    status: 200,
    response: shareGrants,
    errors: ['fs.share.not_found'],
  }),
  setGrants: defineRoute({
    id: 'shares.setGrants',
    method: 'PUT',
    path: '/api/shares/{shareId}/grants',
    access: 'admin',
    summary: 'Replaces every grant of the share; applies to the next request',
    params: shareIdParams,
    body: shareGrantsRequest,
    status: 200,
    response: shareGrants,
    errors: ['fs.share.not_found', 'fs.grant.subject_not_found'],
  }),
  setRestorePoints: defineRoute({
    id: 'shares.setRestorePoints',
    method: 'PUT',
    path: '/api/shares/{shareId}/restore-points',
    access: 'admin',
    summary: 'Daily restore points on or off; only shares with a dataset have them',
    params: shareIdParams,
    body: restorePointsRequest,
    status: 204,
    errors: ['fs.share.not_found', 'fs.share.no_dataset'],
  }),
  setTrash: defineRoute({
    id: 'shares.setTrash',
    method: 'PUT',
    path: '/api/shares/{shareId}/trash',
    access: 'admin',
    summary: 'Recycle-bin retention in days (0 keeps until emptied); applies to items already in the bin',
    params: shareIdParams,
    body: trashSettingsRequest,
    status: 204,
    errors: ['fs.share.not_found'],
  }),
};

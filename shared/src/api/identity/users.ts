import Joi from 'joi';
import { newPassword } from './auth.ts';
import { id, isoTime } from '../common.ts';
import { jobSchema, type Job } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';
import { languages, type Language } from '../system/system.ts';

/** Debian's NAME_REGEX: what useradd and groupadd accept as account names. */
export const accountName = () =>
  Joi.string()
    .pattern(/^[a-z_][a-z0-9_-]*$/)
    .min(1)
    .max(32);

export interface UserSummary {
  id: number;
  username: string;
  displayName: string;
  /** System uid, 20000 to 29999. */
  uid: number;
  /** The user's own administrator right (a group may grant it too; see the user's grants). */
  admin: boolean;
  /** The user's own SMB and SFTP rights. */
  smb: boolean;
  sftp: boolean;
  active: boolean;
  totpEnabled: boolean;
  language: Language;
  /** Groups the user is a member of, the built-in group users not included. */
  groupIds: number[];
  /** Path of the user's home folder; null while the box has no home pool. */
  home: string | null;
  createdAt: string;
}

export interface NewUser {
  username: string;
  displayName?: string;
  password: string;
  admin?: boolean;
  smb?: boolean;
  sftp?: boolean;
  language?: Language;
  groupIds?: number[];
}

export interface UserUpdate {
  displayName?: string;
  admin?: boolean;
  smb?: boolean;
  sftp?: boolean;
  /** false deactivates: sessions end at once and the system account expires. */
  active?: boolean;
  /** The user's desktop language; their open sessions read it at the next sign-in or reload. */
  language?: Language;
}

export type HomeDisposal = 'keep' | 'delete' | 'move';

export interface UserDeleteQuery {
  home?: HomeDisposal;
  shareId?: number;
  confirm?: string;
}

export interface UserDeletion {
  userId: number;
  username: string;
  home: HomeDisposal;
  /** Where a kept home remains (`<name>.deleted-<uid>`); null when there is none. */
  keptHome: string | null;
  /** The move job for home=move; null otherwise. */
  job: Job | null;
}

export interface PasswordReset {
  password: string;
}

export const userSummary = Joi.object<UserSummary, true>({
  id: id().required(),
  username: Joi.string().required(),
  displayName: Joi.string().allow('').required(),
  uid: Joi.number().integer().min(20000).max(29999).required(),
  admin: Joi.boolean().required(),
  smb: Joi.boolean().required(),
  sftp: Joi.boolean().required(),
  active: Joi.boolean().required(),
  totpEnabled: Joi.boolean().required(),
  language: Joi.string()
    .valid(...languages)
    .required(),
  groupIds: Joi.array().items(id()).required(),
  home: Joi.string().allow(null).required(),
  createdAt: isoTime().required(),
}).id('UserSummary');

export const newUser = Joi.object<NewUser, true>({
  username: accountName().required(),
  displayName: Joi.string().allow('').max(128),
  password: newPassword().required(),
  admin: Joi.boolean(),
  smb: Joi.boolean(),
  sftp: Joi.boolean(),
  language: Joi.string().valid(...languages),
  groupIds: Joi.array().items(id()).unique().max(1000),
}).id('NewUser');

export const userUpdate = Joi.object<UserUpdate, true>({
  displayName: Joi.string().allow('').max(128),
  admin: Joi.boolean(),
  smb: Joi.boolean(),
  sftp: Joi.boolean(),
  active: Joi.boolean(),
  language: Joi.string().valid(...languages),
}).id('UserUpdate');

export const userDeleteQuery = Joi.object<UserDeleteQuery, true>({
  home: Joi.string().valid('keep', 'delete', 'move').default('keep'),
  shareId: id().when('home', { is: 'move', then: Joi.required() }),
  confirm: Joi.string().max(64),
});

export const userDeletion = Joi.object<UserDeletion, true>({
  userId: id().required(),
  username: Joi.string().required(),
  home: Joi.string().valid('keep', 'delete', 'move').required(),
  keptHome: Joi.string().allow(null).required(),
  job: jobSchema.allow(null).required(),
}).id('UserDeletion');

export const passwordReset = Joi.object<PasswordReset, true>({ password: newPassword().required() }).id('PasswordReset');

const userParams = Joi.object<{ userId: number }, true>({ userId: id().required() });

export const usersRoutes = {
  list: defineRoute({
    id: 'users.list',
    method: 'GET',
    path: '/api/users',
    access: 'admin',
    summary: 'Every user with uid and home folder',
    status: 200,
    response: Joi.array<UserSummary[]>().items(userSummary),
    errors: [],
  }),
  create: defineRoute({
    id: 'users.create',
    method: 'POST',
    path: '/api/users',
    access: 'admin',
    summary: 'Creates a user with its system and SMB accounts',
    description:
      'The next free uid from 20000 to 29999 (never one given out before), primary group users, no login shell. The password follows the password rules (auth.password.weak).',
    body: newUser,
    status: 201,
    response: userSummary,
    errors: [
      'users.username.taken',
      'users.username.reserved',
      'users.uid.exhausted',
      'auth.password.weak',
      'groups.member.not_found',
      'users.account.host_failed',
    ],
  }),
  update: defineRoute({
    id: 'users.update',
    method: 'PATCH',
    path: '/api/users/{userId}',
    access: 'admin',
    summary: 'Changes display name, administrator, SMB and SFTP rights, or deactivates',
    description:
      'Deactivating ends every session of the user at once (their live connections close) and expires the system account. Nobody deactivates themselves; the last active administrator keeps the right and stays active.',
    params: userParams,
    body: userUpdate,
    status: 200,
    response: userSummary,
    errors: ['users.user.not_found', 'users.self.deactivate', 'users.admin.last', 'users.account.host_failed'],
  }),
  remove: defineRoute({
    id: 'users.remove',
    method: 'DELETE',
    path: '/api/users/{userId}',
    access: 'admin',
    summary: 'Deletes a user and the system account; the uid is never given out again',
    description:
      'home=keep (default) leaves the home as `<name>.deleted-<uid>`; home=delete needs confirm equal to the user name; home=move moves it into a folder of share shareId as a job. A user without a home (no home pool when created) answers users.home.unavailable for delete and move. Everything that can be checked is checked before anything changes (users.home.target_unwritable, users.home.kept_taken, storage.dataset.not_found, fs.share.not_found). The home is handled after the user and account are gone: if that step fails, the answer is users.home.dispose_failed, the user stays deleted and homeState says where the home is (unchanged or kept as `<name>.deleted-<uid>`, never half-renamed).',
    params: userParams,
    query: userDeleteQuery,
    status: 200,
    response: userDeletion,
    errors: [
      'users.user.not_found',
      'users.self.delete',
      'users.admin.last',
      'users.confirm.mismatch',
      'users.home.unavailable',
      'users.home.target_unwritable',
      'users.home.kept_taken',
      'users.home.dispose_failed',
      'users.account.host_failed',
      'fs.share.not_found',
      'storage.dataset.not_found',
    ],
  }),
  resetPassword: defineRoute({
    id: 'users.resetPassword',
    method: 'PUT',
    path: '/api/users/{userId}/password',
    access: 'admin',
    summary: "Sets a user's password, for SMB and SFTP too, and ends every session of the user",
    params: userParams,
    body: passwordReset,
    status: 204,
    errors: ['users.user.not_found', 'auth.password.weak', 'users.account.host_failed'],
  }),
};

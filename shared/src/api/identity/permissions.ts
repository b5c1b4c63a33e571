import Joi from 'joi';
import { id } from '../common.ts';
import { groupParams } from './groups.ts';
import { defineRoute } from '../route.ts';

export type RightKind = 'special' | 'protocol' | 'app';

/** Ids of the rights that are not apps; apps are `app:<appId>`. */
export const specialRights = {
  admin: 'system.admin',
  power: 'system.power',
  smb: 'smb',
  sftp: 'sftp',
} as const;

export const appRight = (appId: string) => `app:${appId}`;

export interface PermissionRight {
  /** `system.admin`, `system.power`, `smb`, `sftp`, or `app:<appId>`. */
  id: string;
  kind: RightKind;
  title: string;
  description: string;
}

export interface PermissionCatalog {
  /** In editor order: special rights, file protocols, apps. */
  rights: PermissionRight[];
}

export interface GrantsRequest {
  /** Every right granted (level allow); replaces the previous set. */
  rights: string[];
}

export interface GroupGrants {
  groupId: number;
  rights: string[];
}

export interface UserGrants {
  userId: number;
  /** The user's own grants (system.admin, smb and sftp are the admin, smb and sftp flags of the user). */
  own: string[];
  /** Grants of each of the user's groups, the built-in group users included. */
  groups: { groupId: number; name: string; rights: string[] }[];
  /** The union: what the user holds now (nothing while deactivated). */
  effective: string[];
  /** Whether the user is an administrator (own right or through a group). */
  admin: boolean;
}

/** What a user holds now: the payload of the `users/<id>/grants` topic. */
export interface EffectiveRights {
  admin: boolean;
  rights: string[];
}

const rightId = () => Joi.string().min(1).max(300);

export const permissionRight = Joi.object<PermissionRight, true>({
  id: rightId().required(),
  kind: Joi.string().valid('special', 'protocol', 'app').required(),
  title: Joi.string().required(),
  description: Joi.string().allow('').required(),
}).id('PermissionRight');

export const permissionCatalog = Joi.object<PermissionCatalog, true>({ rights: Joi.array().items(permissionRight).required() }).id('PermissionCatalog');

export const grantsRequest = Joi.object<GrantsRequest, true>({ rights: Joi.array().items(rightId()).unique().max(1000).required() }).id('GrantsRequest');

export const groupGrants = Joi.object<GroupGrants, true>({ groupId: id().required(), rights: Joi.array().items(rightId()).required() }).id('GroupGrants');

export const userGrants = Joi.object<UserGrants, true>({
  userId: id().required(),
  own: Joi.array().items(rightId()).required(),
  groups: Joi.array()
    .items(Joi.object({ groupId: id().required(), name: Joi.string().required(), rights: Joi.array().items(rightId()).required() }))
    .required(),
  effective: Joi.array().items(rightId()).required(),
  admin: Joi.boolean().required(),
}).id('UserGrants');

const userParams = Joi.object<{ userId: number }, true>({ userId: id().required() });

export const permissionsRoutes = {
  catalog: defineRoute({
    id: 'permissions.catalog',
    method: 'GET',
    path: '/api/permissions/catalog',
    access: 'admin',
    summary: 'Every right that can be granted: special rights, file protocols, apps, in editor order',
    status: 200,
    response: permissionCatalog,
    errors: [],
  }),
  groupGrants: defineRoute({
    id: 'permissions.groupGrants',
    method: 'GET',
    path: '/api/groups/{groupId}/grants',
    access: 'admin',
    summary: "A group's grants; every member has all of them",
    params: groupParams,
    status: 200,
    response: groupGrants,
    errors: ['groups.group.not_found'],
  }),
  setGroupGrants: defineRoute({
    id: 'permissions.setGroupGrants',
    method: 'PUT',
    path: '/api/groups/{groupId}/grants',
    access: 'admin',
    summary: 'Replaces every grant of a group (the built-in group users included)',
    description: "Refused when no active administrator would be left. Applies to the members' next request and is pushed on their `users/<id>/grants` topics.",
    params: groupParams,
    body: grantsRequest,
    status: 200,
    response: groupGrants,
    errors: ['groups.group.not_found', 'permissions.right.unknown', 'users.admin.last', 'users.account.host_failed'],
  }),
  userGrants: defineRoute({
    id: 'permissions.userGrants',
    method: 'GET',
    path: '/api/users/{userId}/grants',
    access: 'admin',
    summary: "A user's own grants, group grants (built-in group included) and the effective result",
    params: userParams,
    status: 200,
    response: userGrants,
    errors: ['users.user.not_found'],
  }),
  setUserGrants: defineRoute({
    id: 'permissions.setUserGrants',
    method: 'PUT',
    path: '/api/users/{userId}/grants',
    access: 'admin',
    summary: 'Replaces every own grant of a user',
    description: "Refused when no active administrator would be left. Applies to the user's next request and is pushed on the `users/<id>/grants` topic.",
    params: userParams,
    body: grantsRequest,
    status: 200,
    response: userGrants,
    errors: ['users.user.not_found', 'permissions.right.unknown', 'users.admin.last', 'users.account.host_failed'],
  }),
};

import Joi from 'joi';
import { id } from '../common.ts';
import { defineRoute } from '../route.ts';
import { accountName } from './users.ts';

export interface GroupMember {
  id: number;
  username: string;
}

export interface GroupSummary {
  id: number;
  name: string;
  /** System gid: 30000 to 39999, or the system's own gid for the built-in group users. */
  gid: number;
  description: string;
  /**
   * A built-in group's description as a code (`users`), which readers see in their language
   * (the web's controlPanel.groups.builtInDescription.<code>); description keeps the English
   * text for other clients. Null for the groups administrators make.
   */
  descriptionCode: string | null;
  /** The group users: every user is a member; it cannot be changed or deleted. */
  builtIn: boolean;
  members: GroupMember[];
}

export interface NewGroup {
  name: string;
  description?: string;
  memberIds?: number[];
}

export interface GroupUpdate {
  name?: string;
  description?: string;
  /** Replaces the member list. */
  memberIds?: number[];
}

export const groupSummary = Joi.object<GroupSummary, true>({
  id: id().required(),
  name: Joi.string().required(),
  gid: Joi.number().integer().min(0).required(),
  description: Joi.string().allow('').required(),
  descriptionCode: Joi.string().allow(null).required(),
  builtIn: Joi.boolean().required(),
  members: Joi.array()
    .items(Joi.object<GroupMember, true>({ id: id().required(), username: Joi.string().required() }).id('GroupMember'))
    .required(),
}).id('GroupSummary');

export const newGroup = Joi.object<NewGroup, true>({
  name: accountName().required(),
  description: Joi.string().allow('').max(512),
  memberIds: Joi.array().items(id()).unique().max(10000),
}).id('NewGroup');

export const groupUpdate = Joi.object<GroupUpdate, true>({
  name: accountName(),
  description: Joi.string().allow('').max(512),
  memberIds: Joi.array().items(id()).unique().max(10000),
}).id('GroupUpdate');

export const groupParams = Joi.object<{ groupId: number }, true>({ groupId: id().required() });

export const groupsRoutes = {
  list: defineRoute({
    id: 'groups.list',
    method: 'GET',
    path: '/api/groups',
    access: 'admin',
    summary: 'Every group with its members; the built-in group users first',
    status: 200,
    response: Joi.array<GroupSummary[]>().items(groupSummary),
    errors: [],
  }),
  create: defineRoute({
    id: 'groups.create',
    method: 'POST',
    path: '/api/groups',
    access: 'admin',
    summary: 'Creates a system group (gid 30000 to 39999, never one given out before) with its members',
    body: newGroup,
    status: 201,
    response: groupSummary,
    errors: ['groups.name.taken', 'groups.name.reserved', 'groups.gid.exhausted', 'groups.member.not_found', 'users.account.host_failed'],
  }),
  update: defineRoute({
    id: 'groups.update',
    method: 'PATCH',
    path: '/api/groups/{groupId}',
    access: 'admin',
    summary: 'Renames a group, changes its description or replaces its members; the gid stays',
    description: 'The built-in group users cannot be changed. A member change that would leave no active administrator is refused.',
    params: groupParams,
    body: groupUpdate,
    status: 200,
    response: groupSummary,
    errors: [
      'groups.group.not_found',
      'groups.group.built_in',
      'groups.name.taken',
      'groups.name.reserved',
      'groups.member.not_found',
      'users.admin.last',
      'users.account.host_failed',
    ],
  }),
  remove: defineRoute({
    id: 'groups.remove',
    method: 'DELETE',
    path: '/api/groups/{groupId}',
    access: 'admin',
    summary: 'Deletes a group; files keep its gid, which is never given out again',
    params: groupParams,
    status: 204,
    errors: ['groups.group.not_found', 'groups.group.built_in', 'users.admin.last', 'users.account.host_failed'],
  }),
};

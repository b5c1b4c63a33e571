import { defineErrors } from './catalog-entry.ts';

/** Users, groups and permissions: the identity part of the API (spec 4.6, 4.7). */
export const usersErrors = defineErrors({
  'users.user.not_found': { status: 404, title: 'There is no such user', params: ['userId'] },
  'users.username.taken': { status: 409, title: 'A user of this name exists already', params: ['username'] },
  'users.username.reserved': { status: 409, title: 'This name belongs to the system', params: ['username'] },
  'users.self.deactivate': { status: 409, title: 'You cannot deactivate yourself' },
  'users.self.delete': { status: 409, title: 'You cannot delete yourself' },
  'users.admin.last': { status: 409, title: 'The box needs an active administrator: the last one keeps the right and stays active' },
  'users.uid.exhausted': { status: 409, title: 'Every user id from 20000 to 29999 has been given out' },
  'users.confirm.mismatch': { status: 400, title: 'Deleting the home needs confirm equal to the user name', params: ['expected'] },
  'users.home.unavailable': { status: 409, title: 'Homes come with a home pool; until there is one, only home=keep is possible', params: ['home'] },
  'users.home.target_unwritable': {
    status: 409,
    title: 'The home cannot be moved: the target share is not a folder the box can write to; nothing was changed',
    params: ['shareId'],
  },
  'users.home.kept_taken': {
    status: 409,
    title: 'The home cannot be kept: a folder of the deleted-home name exists already; nothing was changed',
    params: ['folder'],
  },
  'users.home.dispose_failed': {
    status: 500,
    title:
      'The user is deleted, but the home could not be handled as asked. homeState says where it is: unchanged (under its old name) or kept (as <name>.deleted-<uid>), either way a deleted home the homes operations can delete or release; unknown when it could not be told',
    params: ['userId', 'username', 'userDeleted', 'home', 'homeState', 'folder', 'shareId', 'cause', 'causeParams'],
  },
  'users.account.host_failed': { status: 500, title: 'A system account command failed; nothing was changed', params: ['command', 'exitCode'] },
  'groups.group.not_found': { status: 404, title: 'There is no such group', params: ['groupId'] },
  'groups.name.taken': { status: 409, title: 'A group of this name exists already', params: ['name'] },
  'groups.name.reserved': { status: 409, title: 'This name belongs to the system', params: ['name'] },
  'groups.group.built_in': { status: 409, title: 'The built-in group users cannot be changed or deleted' },
  'groups.member.not_found': { status: 400, title: 'A member is not a user of the box', params: ['userIds'] },
  'groups.gid.exhausted': { status: 409, title: 'Every group id from 30000 to 39999 has been given out' },
  'permissions.right.unknown': { status: 400, title: 'A right is not in the permission catalog', params: ['rights'] },
});

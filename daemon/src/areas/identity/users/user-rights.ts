import type { Transaction } from 'sequelize';
import type { UserGrants } from '../../../../../shared/src/api/identity/permissions.ts';
import type { UserRow } from './user.model.ts';

/**
 * What users and groups ask of the permissions they sit under: read and set the grants of a
 * user, and refuse a change that leaves no active administrator. Users own this port and
 * permissions (its Rights) implement it, so imports run one way: permissions -> users.
 */
export interface UserRights {
  own(user: UserRow, transaction?: Transaction): Promise<string[]>;
  ofUser(user: UserRow, transaction?: Transaction): Promise<UserGrants>;
  hasOwn(userId: number, right: string, transaction?: Transaction): Promise<boolean>;
  setOwn(userId: number, right: string, on: boolean, transaction: Transaction): Promise<void>;
  /** Throws users.admin.last (rolling the change's transaction back) when no active administrator is left. */
  assertAdminLeft(transaction: Transaction): Promise<void>;
  /** Usernames holding a right now (active users only). */
  holders(right: string, transaction?: Transaction): Promise<string[]>;
}

import { DataTypes, Model, type Sequelize } from 'sequelize';

/** A user's own grant of one right; the user's own administrator right is the users.admin column instead. */
export class UserGrantRow extends Model {
  declare userId: number;
  declare right: string;
}

export class GroupGrantRow extends Model {
  declare groupId: number;
  declare right: string;
}

export interface GrantModels {
  userGrants: typeof UserGrantRow;
  groupGrants: typeof GroupGrantRow;
}

export function initGrantModels(sequelize: Sequelize): GrantModels {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const UserGrantRowBound = class extends UserGrantRow {};
  UserGrantRowBound.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      right: { type: DataTypes.TEXT, primaryKey: true },
    },
    { sequelize, tableName: 'user_grants', modelName: 'UserGrantRow' },
  );
  const GroupGrantRowBound = class extends GroupGrantRow {};
  GroupGrantRowBound.init(
    {
      groupId: { type: DataTypes.INTEGER, primaryKey: true },
      right: { type: DataTypes.TEXT, primaryKey: true },
    },
    { sequelize, tableName: 'group_grants', modelName: 'GroupGrantRow' },
  );
  return { userGrants: UserGrantRowBound, groupGrants: GroupGrantRowBound };
}

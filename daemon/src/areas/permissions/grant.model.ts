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
  UserGrantRow.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      right: { type: DataTypes.TEXT, primaryKey: true },
    },
    { sequelize, tableName: 'user_grants' },
  );
  GroupGrantRow.init(
    {
      groupId: { type: DataTypes.INTEGER, primaryKey: true },
      right: { type: DataTypes.TEXT, primaryKey: true },
    },
    { sequelize, tableName: 'group_grants' },
  );
  return { userGrants: UserGrantRow, groupGrants: GroupGrantRow };
}

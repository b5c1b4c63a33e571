import { DataTypes, Model, type Sequelize } from 'sequelize';

export class GroupRow extends Model {
  declare id: number;
  declare name: string;
  declare gid: number;
  declare description: string;
  declare builtIn: boolean;
  declare createdAt: string;
  declare updatedAt: string;
}

export class GroupMemberRow extends Model {
  declare groupId: number;
  declare userId: number;
}

/** The highest uid (`uid`) and gid (`gid`) ever handed out. */
export class AccountIdRow extends Model {
  declare kind: 'uid' | 'gid';
  declare last: number;
}

export interface GroupModels {
  groups: typeof GroupRow;
  members: typeof GroupMemberRow;
  accountIds: typeof AccountIdRow;
}

export function initGroupModels(sequelize: Sequelize): GroupModels {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const GroupRowBound = class extends GroupRow {};
  GroupRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false, unique: true },
      gid: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      builtIn: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'groups', modelName: 'GroupRow' },
  );
  const GroupMemberRowBound = class extends GroupMemberRow {};
  GroupMemberRowBound.init(
    {
      groupId: { type: DataTypes.INTEGER, primaryKey: true },
      userId: { type: DataTypes.INTEGER, primaryKey: true },
    },
    { sequelize, tableName: 'group_members', modelName: 'GroupMemberRow' },
  );
  const AccountIdRowBound = class extends AccountIdRow {};
  AccountIdRowBound.init(
    {
      kind: { type: DataTypes.TEXT, primaryKey: true },
      last: { type: DataTypes.INTEGER, allowNull: false },
    },
    { sequelize, tableName: 'account_ids', modelName: 'AccountIdRow' },
  );
  return { groups: GroupRowBound, members: GroupMemberRowBound, accountIds: AccountIdRowBound };
}

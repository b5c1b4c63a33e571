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
  GroupRow.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false, unique: true },
      gid: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      builtIn: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'groups' },
  );
  GroupMemberRow.init(
    {
      groupId: { type: DataTypes.INTEGER, primaryKey: true },
      userId: { type: DataTypes.INTEGER, primaryKey: true },
    },
    { sequelize, tableName: 'group_members' },
  );
  AccountIdRow.init(
    {
      kind: { type: DataTypes.TEXT, primaryKey: true },
      last: { type: DataTypes.INTEGER, allowNull: false },
    },
    { sequelize, tableName: 'account_ids' },
  );
  return { groups: GroupRow, members: GroupMemberRow, accountIds: AccountIdRow };
}

import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { Language } from '../../../../../shared/src/api/system/system.ts';

export class UserRow extends Model {
  declare id: number;
  declare username: string;
  /** System uid, 20000 to 29999. */
  declare uid: number;
  declare displayName: string;
  declare passwordHash: string;
  declare admin: boolean;
  declare active: boolean;
  declare language: Language;
  declare createdAt: string;
  declare updatedAt: string;
}

export function initUserModel(sequelize: Sequelize): typeof UserRow {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const UserRowBound = class extends UserRow {};
  UserRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      username: { type: DataTypes.TEXT, allowNull: false, unique: true },
      uid: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      displayName: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      passwordHash: { type: DataTypes.TEXT, allowNull: false },
      admin: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      language: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'en' },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'users', modelName: 'UserRow' },
  );
  return UserRowBound;
}

import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  await qi.createTable(
    'users',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      username: { type: DataTypes.TEXT, allowNull: false, unique: true },
      display_name: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      password_hash: { type: DataTypes.TEXT, allowNull: false },
      admin: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      language: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'en' },
      created_at: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.createTable(
    'sessions',
    {
      sid: { type: DataTypes.TEXT, primaryKey: true },
      user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      data: { type: DataTypes.TEXT, allowNull: false },
      expires_at: { type: DataTypes.INTEGER, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('sessions', ['user_id'], { transaction });
  await qi.addIndex('sessions', ['expires_at'], { transaction });
}

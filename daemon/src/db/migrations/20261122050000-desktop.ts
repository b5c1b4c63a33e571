import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

const userRef = {
  type: DataTypes.INTEGER,
  allowNull: false,
  references: { model: 'users', key: 'id' },
  onDelete: 'CASCADE',
} as const;

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  await qi.createTable(
    'desktop_items',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      user_id: userRef,
      kind: { type: DataTypes.TEXT, allowNull: false },
      label: { type: DataTypes.TEXT, allowNull: false },
      app_id: { type: DataTypes.TEXT, allowNull: true },
      // No foreign key: a shortcut outlives its share and then simply opens nothing.
      share_id: { type: DataTypes.INTEGER, allowNull: true },
      path: { type: DataTypes.TEXT, allowNull: true },
      version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      created_at: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('desktop_items', ['user_id'], { transaction });

  await qi.createTable(
    'desktop_layouts',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      user_id: userRef,
      device_id: { type: DataTypes.TEXT, allowNull: false },
      layout: { type: DataTypes.TEXT, allowNull: false },
      version: { type: DataTypes.INTEGER, allowNull: false },
      user_agent: { type: DataTypes.TEXT, allowNull: true },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('desktop_layouts', ['user_id', 'device_id'], {
    unique: true,
    transaction,
  });

  await qi.createTable(
    'desktop_appearances',
    {
      user_id: { ...userRef, primaryKey: true },
      accent_color: { type: DataTypes.TEXT, allowNull: false },
      wallpaper: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );

  await qi.createTable(
    'window_preferences',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      user_id: userRef,
      app_id: { type: DataTypes.TEXT, allowNull: false },
      width: { type: DataTypes.INTEGER, allowNull: false },
      height: { type: DataTypes.INTEGER, allowNull: false },
      x: { type: DataTypes.INTEGER, allowNull: true },
      y: { type: DataTypes.INTEGER, allowNull: true },
      maximised: { type: DataTypes.BOOLEAN, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('window_preferences', ['user_id', 'app_id'], {
    unique: true,
    transaction,
  });
}

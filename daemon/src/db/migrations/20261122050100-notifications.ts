import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  await qi.createTable(
    'notifications',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      user_id: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      type: { type: DataTypes.TEXT, allowNull: false },
      app_id: { type: DataTypes.TEXT, allowNull: true },
      level: { type: DataTypes.TEXT, allowNull: false },
      title: { type: DataTypes.TEXT, allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: false },
      link: { type: DataTypes.TEXT, allowNull: true },
      read: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      created_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  // Listing and pruning both go by user, newest first.
  await qi.addIndex('notifications', ['user_id', 'created_at'], {
    transaction,
  });
  await qi.addIndex('notifications', ['created_at'], { transaction });
}

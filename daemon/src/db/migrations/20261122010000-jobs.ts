import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  await qi.createTable(
    'jobs',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      kind: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      // JSON; kept so queued jobs can still run after a restart. Never a secret.
      params: { type: DataTypes.TEXT, allowNull: false },
      // A deleted user's finished jobs stay for administrators until retention removes them.
      user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' },
      request_id: { type: DataTypes.TEXT, allowNull: true },
      progress: { type: DataTypes.TEXT, allowNull: true },
      error: { type: DataTypes.TEXT, allowNull: true },
      result: { type: DataTypes.TEXT, allowNull: true },
      created_at: { type: DataTypes.TEXT, allowNull: false },
      started_at: { type: DataTypes.TEXT, allowNull: true },
      finished_at: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  await qi.addIndex('jobs', ['user_id', 'id'], { transaction });
  await qi.addIndex('jobs', ['state'], { transaction });
  await qi.addIndex('jobs', ['finished_at'], { transaction });
}

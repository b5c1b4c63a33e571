import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // A code and its params that the web translates; title and body stay as the English text.
  await qi.addColumn('notifications', 'code', { type: DataTypes.TEXT, allowNull: true }, { transaction });
  await qi.addColumn('notifications', 'params', { type: DataTypes.TEXT, allowNull: true }, { transaction });
}

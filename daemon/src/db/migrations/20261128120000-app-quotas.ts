import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // An administrator's own quota of an app's volume: null follows the app's default, 0 is none.
  // On the account's row, beside the dataset: it outlives an uninstall that keeps the data.
  await qi.addColumn('app_accounts', 'quota_bytes', { type: DataTypes.INTEGER, allowNull: true }, { transaction });
}

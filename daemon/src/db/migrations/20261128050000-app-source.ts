import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // The catalog an app was installed from (its id), which alone may bring its updates; null: uploaded by hand.
  // Apps installed before this was kept count as uploaded by hand: no catalog may update them until an administrator says which.
  await qi.addColumn('apps', 'source_catalog', { type: DataTypes.TEXT, allowNull: true }, { transaction });
}

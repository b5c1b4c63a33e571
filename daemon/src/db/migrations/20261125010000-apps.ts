import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migrate.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Installed apps: the manifest of the installed version is the truth of what it asked for.
  await qi.createTable(
    'apps',
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      version: { type: DataTypes.TEXT, allowNull: false },
      data_version: { type: DataTypes.INTEGER, allowNull: false },
      manifest: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      installed_at: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
}

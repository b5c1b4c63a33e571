import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // The reverse proxy's hosts, redirects, streams and options, each a JSON value: nginx's configuration is generated from them.
  await qi.createTable(
    'proxy_entries',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      kind: { type: DataTypes.TEXT, allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: false },
      created_at: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('proxy_entries', ['kind'], { transaction });
}

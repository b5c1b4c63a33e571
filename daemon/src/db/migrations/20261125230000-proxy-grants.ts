import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Cookies of sign-in-protected proxy hosts, so a restart keeps visitors in: only a hash of the value is kept.
  await qi.createTable(
    'proxy_grants',
    {
      token_hash: { type: DataTypes.TEXT, primaryKey: true },
      host_id: { type: DataTypes.INTEGER, allowNull: false },
      user_id: { type: DataTypes.INTEGER, allowNull: false },
      // The box session it came from: signing out there ends it.
      sid: { type: DataTypes.TEXT, allowNull: false },
      expires_at: { type: DataTypes.INTEGER, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('proxy_grants', ['sid'], { transaction });
  await qi.addIndex('proxy_grants', ['host_id'], { transaction });
}

import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Replication pairings (issue 33), on the source (key files, pinned target) and on the target (authorized key).
  const text = (allowNull: boolean) => ({ type: DataTypes.TEXT, allowNull });
  await qi.createTable(
    'replication_pairings',
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      role: text(false),
      label: text(false),
      peer_address: text(false),
      parent_dataset: text(false),
      root_fingerprint: text(true),
      host_key: text(false),
      public_key: text(false),
      ssh_host: text(true),
      ssh_port: { type: DataTypes.INTEGER, allowNull: true },
      ssh_user: text(true),
      key_path: text(true),
      known_hosts_path: text(true),
      created_at: text(false),
    },
    { transaction },
  );
}

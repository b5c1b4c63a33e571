import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  await qi.createTable(
    'shares',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      kind: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'folder' },
      host_path: { type: DataTypes.TEXT, allowNull: false, unique: true },
      dataset: { type: DataTypes.TEXT, allowNull: true },
      smb_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      smb_encrypt: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      sftp_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      restore_points: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      trash_retention_days: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 30 },
      created_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  // Share names are compared ignoring case: SMB clients do.
  await qi.sequelize.query('CREATE UNIQUE INDEX shares_name_nocase ON shares (name COLLATE NOCASE)', { transaction });
  // subject_id names a user or a group; no foreign key to groups, whose table belongs to the
  // identity area. Grants of a deleted subject are removed by the service that deletes it.
  await qi.createTable(
    'share_grants',
    {
      share_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'shares', key: 'id' }, onDelete: 'CASCADE' },
      subject_type: { type: DataTypes.TEXT, allowNull: false, primaryKey: true },
      subject_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      level: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('share_grants', ['subject_type', 'subject_id'], { transaction });
}

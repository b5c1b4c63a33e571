import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // One row per entry in a share's recycle bin; the entry itself lives in <share>/.cellar-trash/<stored_name>.
  await qi.createTable(
    'trash_items',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      share_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'shares', key: 'id' }, onDelete: 'CASCADE' },
      stored_name: { type: DataTypes.TEXT, allowNull: false },
      original_path: { type: DataTypes.TEXT, allowNull: false },
      type: { type: DataTypes.TEXT, allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      // ISO time by the daemon's clock: the purge compares it with the share's current retention.
      deleted_at: { type: DataTypes.TEXT, allowNull: false },
      // The user id without a foreign key, and the name as it was: a deleted user's items still say who.
      deleted_by_id: { type: DataTypes.INTEGER, allowNull: true },
      deleted_by_name: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  await qi.addIndex('trash_items', ['share_id', 'deleted_at', 'id'], { transaction });
  await qi.addIndex('trash_items', ['share_id', 'stored_name'], { unique: true, transaction });
}

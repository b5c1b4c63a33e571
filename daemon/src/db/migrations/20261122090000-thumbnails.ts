import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // One row per rendered (or refused) thumbnail; the WebP itself lives under <dataDir>/thumbnails.
  await qi.createTable(
    'thumbnails',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      share_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'shares', key: 'id' }, onDelete: 'CASCADE' },
      // The path it was rendered from: the sweep and the delete hook find the source by it.
      path: { type: DataTypes.TEXT, allowNull: false },
      // Hash of the file's identity (dev, inode) and version (size, mtime): the `v` of the API.
      cache_key: { type: DataTypes.TEXT, allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      reason: { type: DataTypes.TEXT, allowNull: true },
      created_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.addIndex('thumbnails', ['share_id', 'cache_key', 'size'], { unique: true, transaction });
  await qi.addIndex('thumbnails', ['share_id', 'path'], { transaction });
}

import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { ThumbnailReason } from '../../../../../shared/src/api/files/thumbnails.ts';

/** A thumbnail rendered (`ready`, its WebP in the cache) or refused for good at this version (`failed`). */
export class ThumbnailRow extends Model {
  declare id: number;
  declare shareId: number;
  declare path: string;
  declare cacheKey: string;
  declare size: number;
  declare state: 'ready' | 'failed';
  declare reason: ThumbnailReason | null;
  declare createdAt: string;
}

export function initThumbnailModel(sequelize: Sequelize): typeof ThumbnailRow {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const ThumbnailRowBound = class extends ThumbnailRow {};
  ThumbnailRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      shareId: { type: DataTypes.INTEGER, allowNull: false },
      path: { type: DataTypes.TEXT, allowNull: false },
      cacheKey: { type: DataTypes.TEXT, allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      reason: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'thumbnails', modelName: 'ThumbnailRow' },
  );
  return ThumbnailRowBound;
}

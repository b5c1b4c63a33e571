import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { TrashItemType } from '../../../../../shared/src/api/files/trash.ts';

/** An entry in a share's recycle bin: where it was, who deleted it and when. */
export class TrashRow extends Model {
  declare id: number;
  declare shareId: number;
  /** Its name inside the bin folder: unique, never the original name. */
  declare storedName: string;
  declare originalPath: string;
  declare type: TrashItemType;
  declare size: number;
  declare deletedAt: string;
  declare deletedById: number | null;
  declare deletedByName: string | null;
}

export function initTrashModel(sequelize: Sequelize): typeof TrashRow {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const TrashRowBound = class extends TrashRow {};
  TrashRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      shareId: { type: DataTypes.INTEGER, allowNull: false },
      storedName: { type: DataTypes.TEXT, allowNull: false },
      originalPath: { type: DataTypes.TEXT, allowNull: false },
      type: { type: DataTypes.TEXT, allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      deletedAt: { type: DataTypes.TEXT, allowNull: false },
      deletedById: { type: DataTypes.INTEGER, allowNull: true },
      deletedByName: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'trash_items', modelName: 'TrashRow' },
  );
  return TrashRowBound;
}

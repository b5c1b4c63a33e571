import { DataTypes, Model, type Sequelize } from 'sequelize';

/** One group of the System area's settings (`region`, ...) as JSON. */
export class SystemSettingRow extends Model {
  declare key: string;
  declare value: string;
  declare updatedAt: string;
}

export function initSystemSettingModel(sequelize: Sequelize): typeof SystemSettingRow {
  // A class of its own per database, as every model here (one process may open several daemons).
  const Bound = class extends SystemSettingRow {};
  Bound.init(
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      value: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'system_settings', modelName: 'SystemSettingRow' },
  );
  return Bound;
}

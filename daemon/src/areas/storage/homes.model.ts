import { DataTypes, Model, type Sequelize } from 'sequelize';

export class HomeRow extends Model {
  declare shareId: number;
  declare userId: number | null;
  declare username: string;
  declare uid: number;
  declare folder: string;
  declare dataset: string;
  declare quotaBytes: number | null;
}

/** One row (id 1): the home pool and the default quota. */
export class HomeSettingsRow extends Model {
  declare id: number;
  declare homePool: string | null;
  declare defaultQuotaBytes: number | null;
}

export interface HomeModels {
  homes: typeof HomeRow;
  settings: typeof HomeSettingsRow;
}

export function initHomeModels(sequelize: Sequelize): HomeModels {
  const options = { sequelize, underscored: true, timestamps: false };
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const HomeRowBound = class extends HomeRow {};
  HomeRowBound.init(
    {
      shareId: { type: DataTypes.INTEGER, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      username: { type: DataTypes.TEXT, allowNull: false },
      uid: { type: DataTypes.INTEGER, allowNull: false },
      folder: { type: DataTypes.TEXT, allowNull: false },
      dataset: { type: DataTypes.TEXT, allowNull: false },
      quotaBytes: { type: DataTypes.INTEGER, allowNull: true },
    },
    { ...options, tableName: 'storage_homes', modelName: 'HomeRow' },
  );
  const HomeSettingsRowBound = class extends HomeSettingsRow {};
  HomeSettingsRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      homePool: { type: DataTypes.TEXT, allowNull: true },
      defaultQuotaBytes: { type: DataTypes.INTEGER, allowNull: true },
    },
    { ...options, tableName: 'storage_home_settings', modelName: 'HomeSettingsRow' },
  );
  return { homes: HomeRowBound, settings: HomeSettingsRowBound };
}

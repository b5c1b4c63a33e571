import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { AppManifest } from '../../../../shared/src/api/app-manifest.ts';

export type AppState = 'enabled' | 'disabled';

export class AppRow extends Model {
  declare id: string;
  declare version: string;
  declare dataVersion: number;
  /** The installed version's manifest as JSON. */
  declare manifest: string;
  declare state: AppState;
  declare installedAt: string;
  declare updatedAt: string;

  get parsedManifest(): AppManifest {
    return JSON.parse(this.manifest) as AppManifest;
  }
}

export function initAppModel(sequelize: Sequelize): typeof AppRow {
  // A class per database, as every model here: one process may hold several daemons (tests).
  const AppRowBound = class extends AppRow {};
  AppRowBound.init(
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      version: { type: DataTypes.TEXT, allowNull: false },
      dataVersion: { type: DataTypes.INTEGER, allowNull: false },
      manifest: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      installedAt: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'apps', modelName: 'AppRow' },
  );
  return AppRowBound;
}

import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { AppManifest, AppPermission } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { AppLogLevel, AppState, AppUpdatePolicy } from '../../../../shared/src/api/apps/apps.ts';

export class AppRow extends Model {
  declare id: string;
  declare version: string;
  declare dataVersion: number;
  /** The installed version's manifest as JSON. */
  declare manifest: string;
  declare state: AppState;
  /** JSON array of revoked permissions. */
  declare revoked: string;
  declare logLevel: AppLogLevel;
  declare updatePolicy: AppUpdatePolicy;
  /** The catalog the app came from, which alone may bring its updates; null: uploaded by hand. */
  declare sourceCatalog: string | null;
  declare previousManifest: string | null;
  declare previousSnapshot: string | null;
  declare installedAt: string;
  declare updatedAt: string;

  get parsedManifest(): AppManifest {
    return JSON.parse(this.manifest) as AppManifest;
  }

  get revokedPermissions(): AppPermission[] {
    return JSON.parse(this.revoked) as AppPermission[];
  }
}

export class AppAccountRow extends Model {
  declare appId: string;
  declare uid: number;
  /** The app's dataset (or folder on a development machine); null once deleted with its data. */
  declare dataset: string | null;
  /** An administrator's own quota of the volume: null follows the app's default, 0 is none. */
  declare quotaBytes: number | null;
}

export class AppMappingRow extends Model {
  declare appId: string;
  declare storageId: string;
  declare shareId: number;
  declare path: string;
  declare access: 'read' | 'readWrite';
}

export class AppSettingsRow extends Model {
  declare id: number;
  declare pool: string | null;
}

export interface AppModels {
  apps: typeof AppRow;
  accounts: typeof AppAccountRow;
  mappings: typeof AppMappingRow;
  settings: typeof AppSettingsRow;
}

const text = (allowNull = false) => ({ type: DataTypes.TEXT, allowNull });

export function initAppModels(sequelize: Sequelize): AppModels {
  // A class per database, as every model here: one process may hold several daemons (tests).
  const AppRowBound = class extends AppRow {};
  AppRowBound.init(
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      version: text(),
      dataVersion: { type: DataTypes.INTEGER, allowNull: false },
      manifest: text(),
      state: text(),
      revoked: { type: DataTypes.TEXT, allowNull: false, defaultValue: '[]' },
      logLevel: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'info' },
      updatePolicy: text(true),
      sourceCatalog: text(true),
      previousManifest: text(true),
      previousSnapshot: text(true),
      installedAt: text(),
      updatedAt: text(),
    },
    { sequelize, tableName: 'apps', modelName: 'AppRow', underscored: true, timestamps: false },
  );
  const AppAccountRowBound = class extends AppAccountRow {};
  AppAccountRowBound.init(
    {
      appId: { type: DataTypes.TEXT, primaryKey: true },
      uid: { type: DataTypes.INTEGER, allowNull: false },
      dataset: text(true),
      quotaBytes: { type: DataTypes.INTEGER, allowNull: true },
    },
    { sequelize, tableName: 'app_accounts', modelName: 'AppAccountRow', underscored: true, timestamps: false },
  );
  const AppMappingRowBound = class extends AppMappingRow {};
  AppMappingRowBound.init(
    {
      appId: { type: DataTypes.TEXT, primaryKey: true },
      storageId: { type: DataTypes.TEXT, primaryKey: true },
      shareId: { type: DataTypes.INTEGER, allowNull: false },
      path: text(),
      access: text(),
    },
    { sequelize, tableName: 'app_storage_mappings', modelName: 'AppMappingRow', underscored: true, timestamps: false },
  );
  const AppSettingsRowBound = class extends AppSettingsRow {};
  AppSettingsRowBound.init(
    { id: { type: DataTypes.INTEGER, primaryKey: true }, pool: text(true) },
    { sequelize, tableName: 'app_settings', modelName: 'AppSettingsRow', underscored: true, timestamps: false },
  );
  return { apps: AppRowBound, accounts: AppAccountRowBound, mappings: AppMappingRowBound, settings: AppSettingsRowBound };
}

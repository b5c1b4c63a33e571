import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { CatalogError, CatalogInfo, StoreChannel, StorePolicy } from '../../../../shared/src/api/store/store.ts';

export class CatalogRow extends Model {
  declare key: number;
  declare catalogId: string;
  declare name: string;
  declare url: string;
  declare builtIn: boolean;
  declare enabled: boolean;
  declare readToken: string | null;
  declare state: CatalogInfo['state'];
  /** JSON of CatalogError. */
  declare lastError: string | null;
  declare lastFetchAt: string | null;
  declare verifiedAt: string | null;
  declare commitId: string | null;
  declare branch: string | null;

  get parsedError(): CatalogError | null {
    if (!this.lastError) return null;
    // Errors kept before the parameters were kept have none.
    const kept = JSON.parse(this.lastError) as Omit<CatalogError, 'params'> & { params?: CatalogError['params'] };
    return { ...kept, params: kept.params ?? {} };
  }
}

export class StoreSettingsRow extends Model {
  declare id: number;
  declare policy: StorePolicy;
  declare dailyTime: string;
  declare channel: StoreChannel;
  declare delayMinutes: number;
  declare lastCheckAt: string | null;
}

/** An app version the check announced to the administrators. */
export class AnnouncementRow extends Model {
  declare appId: string;
  declare version: string;
  declare announcedAt: string;
}

export interface StoreModels {
  catalogs: typeof CatalogRow;
  settings: typeof StoreSettingsRow;
  announcements: typeof AnnouncementRow;
}

const text = (allowNull = false) => ({ type: DataTypes.TEXT, allowNull });

export function initStoreModels(sequelize: Sequelize): StoreModels {
  // A class per database: one process may hold several daemons (tests).
  const Catalogs = class extends CatalogRow {};
  Catalogs.init(
    {
      key: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      catalogId: text(),
      name: text(),
      url: text(),
      builtIn: { type: DataTypes.BOOLEAN, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      readToken: text(true),
      state: text(),
      lastError: text(true),
      lastFetchAt: text(true),
      verifiedAt: text(true),
      commitId: text(true),
      branch: text(true),
    },
    { sequelize, tableName: 'store_catalogs', modelName: 'CatalogRow', underscored: true, timestamps: false },
  );
  const Settings = class extends StoreSettingsRow {};
  Settings.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      policy: text(),
      dailyTime: text(),
      channel: text(),
      delayMinutes: { type: DataTypes.INTEGER, allowNull: false },
      lastCheckAt: text(true),
    },
    { sequelize, tableName: 'store_settings', modelName: 'StoreSettingsRow', underscored: true, timestamps: false },
  );
  const Announcements = class extends AnnouncementRow {};
  Announcements.init(
    { appId: { ...text(), primaryKey: true }, version: { ...text(), primaryKey: true }, announcedAt: text() },
    { sequelize, tableName: 'store_announcements', modelName: 'AnnouncementRow', underscored: true, timestamps: false },
  );
  return { catalogs: Catalogs, settings: Settings, announcements: Announcements };
}

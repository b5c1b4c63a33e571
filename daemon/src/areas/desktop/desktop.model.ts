import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { DesktopItemKind, WallpaperChoice } from '../../../../shared/src/api/desktop/desktop.ts';

export class DesktopItemRow extends Model {
  declare id: number;
  declare userId: number;
  declare kind: DesktopItemKind;
  declare label: string;
  declare appId: string | null;
  declare shareId: number | null;
  declare path: string | null;
  declare version: number;
  declare createdAt: string;
  declare updatedAt: string;
}

export class DesktopLayoutRow extends Model {
  declare id: number;
  declare userId: number;
  declare deviceId: string;
  /** JSON text of whatever the web saved. */
  declare layout: string;
  declare version: number;
  declare userAgent: string | null;
  declare updatedAt: string;
}

export class DesktopAppearanceRow extends Model {
  declare userId: number;
  declare accentColor: string;
  declare wallpaper: WallpaperChoice;
  declare updatedAt: string;
}

export class WindowPreferenceRow extends Model {
  declare id: number;
  declare userId: number;
  declare appId: string;
  declare width: number;
  declare height: number;
  declare x: number | null;
  declare y: number | null;
  declare maximised: boolean;
  declare updatedAt: string;
}

/** A user whose desktop got the icons of their apps once. */
export class DesktopSeededRow extends Model {
  declare userId: number;
  declare seededAt: string;
}

export interface DesktopModels {
  items: typeof DesktopItemRow;
  seeded: typeof DesktopSeededRow;
  layouts: typeof DesktopLayoutRow;
  appearances: typeof DesktopAppearanceRow;
  windowPreferences: typeof WindowPreferenceRow;
}

export function initDesktopModels(sequelize: Sequelize): DesktopModels {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const DesktopItemRowBound = class extends DesktopItemRow {};
  DesktopItemRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.TEXT, allowNull: false },
      label: { type: DataTypes.TEXT, allowNull: false },
      appId: { type: DataTypes.TEXT, allowNull: true },
      shareId: { type: DataTypes.INTEGER, allowNull: true },
      path: { type: DataTypes.TEXT, allowNull: true },
      version: { type: DataTypes.INTEGER, allowNull: false },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'desktop_items', modelName: 'DesktopItemRow' },
  );
  const DesktopLayoutRowBound = class extends DesktopLayoutRow {};
  DesktopLayoutRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      deviceId: { type: DataTypes.TEXT, allowNull: false },
      layout: { type: DataTypes.TEXT, allowNull: false },
      version: { type: DataTypes.INTEGER, allowNull: false },
      userAgent: { type: DataTypes.TEXT, allowNull: true },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    {
      sequelize,
      tableName: 'desktop_layouts',
      modelName: 'DesktopLayoutRow',
      indexes: [{ unique: true, fields: ['user_id', 'device_id'] }],
    },
  );
  const DesktopAppearanceRowBound = class extends DesktopAppearanceRow {};
  DesktopAppearanceRowBound.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      accentColor: { type: DataTypes.TEXT, allowNull: false },
      wallpaper: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'desktop_appearances', modelName: 'DesktopAppearanceRow' },
  );
  const WindowPreferenceRowBound = class extends WindowPreferenceRow {};
  WindowPreferenceRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      appId: { type: DataTypes.TEXT, allowNull: false },
      width: { type: DataTypes.INTEGER, allowNull: false },
      height: { type: DataTypes.INTEGER, allowNull: false },
      x: { type: DataTypes.INTEGER, allowNull: true },
      y: { type: DataTypes.INTEGER, allowNull: true },
      maximised: { type: DataTypes.BOOLEAN, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    {
      sequelize,
      tableName: 'window_preferences',
      modelName: 'WindowPreferenceRow',
      indexes: [{ unique: true, fields: ['user_id', 'app_id'] }],
    },
  );
  const DesktopSeededRowBound = class extends DesktopSeededRow {};
  DesktopSeededRowBound.init(
    { userId: { type: DataTypes.INTEGER, primaryKey: true }, seededAt: { type: DataTypes.TEXT, allowNull: false } },
    { sequelize, tableName: 'desktop_seeded', modelName: 'DesktopSeededRow' },
  );
  return {
    items: DesktopItemRowBound,
    seeded: DesktopSeededRowBound,
    layouts: DesktopLayoutRowBound,
    appearances: DesktopAppearanceRowBound,
    windowPreferences: WindowPreferenceRowBound,
  };
}

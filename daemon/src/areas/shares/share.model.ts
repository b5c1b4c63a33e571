import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { GrantLevel, GrantSubjectType, ShareKind } from '../../../../shared/src/api/shares/shares.ts';

export class ShareRow extends Model {
  declare id: number;
  declare name: string;
  declare description: string;
  declare kind: ShareKind;
  /** Real path (symlinks resolved) of the share's folder on the host. */
  declare hostPath: string;
  declare dataset: string | null;
  declare smbEnabled: boolean;
  declare smbEncrypt: boolean;
  declare sftpEnabled: boolean;
  declare restorePoints: boolean;
  declare trashRetentionDays: number;
  declare createdAt: string;
}

export class ShareGrantRow extends Model {
  declare shareId: number;
  declare subjectType: GrantSubjectType;
  declare subjectId: number;
  declare level: GrantLevel;
}

export interface ShareModels {
  shares: typeof ShareRow;
  grants: typeof ShareGrantRow;
}

export function initShareModels(sequelize: Sequelize): ShareModels {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const ShareRowBound = class extends ShareRow {};
  ShareRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      kind: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'folder' },
      hostPath: { type: DataTypes.TEXT, allowNull: false },
      dataset: { type: DataTypes.TEXT, allowNull: true },
      smbEnabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      smbEncrypt: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      sftpEnabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      restorePoints: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      trashRetentionDays: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 30 },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'shares', modelName: 'ShareRow' },
  );
  const ShareGrantRowBound = class extends ShareGrantRow {};
  ShareGrantRowBound.init(
    {
      shareId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      subjectType: { type: DataTypes.TEXT, allowNull: false, primaryKey: true },
      subjectId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      level: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'share_grants', modelName: 'ShareGrantRow' },
  );
  return { shares: ShareRowBound, grants: ShareGrantRowBound };
}

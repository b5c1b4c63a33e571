import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { AlertSeverity, Frequency, SnapshotKind } from '../../../../shared/src/api/storage.ts';

export class ScheduleRow extends Model {
  declare key: string;
  declare frequency: Frequency;
  declare lastRunAt: string | null;
  declare nextRunAt: string | null;
}

export class SnapshotScheduleRow extends Model {
  declare dataset: string;
  declare kind: SnapshotKind;
  declare enabled: boolean;
  declare keep: number;
}

export class AlertMuteRow extends Model {
  declare userId: number;
  declare key: string;
  declare severity: AlertSeverity;
}

export interface StorageModels {
  schedules: typeof ScheduleRow;
  snapshotSchedules: typeof SnapshotScheduleRow;
  mutes: typeof AlertMuteRow;
}

export function initStorageModels(sequelize: Sequelize): StorageModels {
  const options = { sequelize, underscored: true, timestamps: false };
  ScheduleRow.init(
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      frequency: { type: DataTypes.TEXT, allowNull: false },
      lastRunAt: { type: DataTypes.TEXT, allowNull: true },
      nextRunAt: { type: DataTypes.TEXT, allowNull: true },
    },
    { ...options, tableName: 'storage_schedules' },
  );
  SnapshotScheduleRow.init(
    {
      dataset: { type: DataTypes.TEXT, primaryKey: true },
      kind: { type: DataTypes.TEXT, primaryKey: true },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      keep: { type: DataTypes.INTEGER, allowNull: false },
    },
    { ...options, tableName: 'storage_snapshot_schedules' },
  );
  AlertMuteRow.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      key: { type: DataTypes.TEXT, primaryKey: true },
      severity: { type: DataTypes.TEXT, allowNull: false },
    },
    { ...options, tableName: 'storage_alert_mutes' },
  );
  return { schedules: ScheduleRow, snapshotSchedules: SnapshotScheduleRow, mutes: AlertMuteRow };
}

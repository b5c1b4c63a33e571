import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { AlertSeverity, Frequency, SnapshotKind } from '../../../../shared/src/api/storage/storage.ts';

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
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const ScheduleRowBound = class extends ScheduleRow {};
  ScheduleRowBound.init(
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      frequency: { type: DataTypes.TEXT, allowNull: false },
      lastRunAt: { type: DataTypes.TEXT, allowNull: true },
      nextRunAt: { type: DataTypes.TEXT, allowNull: true },
    },
    { ...options, tableName: 'storage_schedules', modelName: 'ScheduleRow' },
  );
  const SnapshotScheduleRowBound = class extends SnapshotScheduleRow {};
  SnapshotScheduleRowBound.init(
    {
      dataset: { type: DataTypes.TEXT, primaryKey: true },
      kind: { type: DataTypes.TEXT, primaryKey: true },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      keep: { type: DataTypes.INTEGER, allowNull: false },
    },
    { ...options, tableName: 'storage_snapshot_schedules', modelName: 'SnapshotScheduleRow' },
  );
  const AlertMuteRowBound = class extends AlertMuteRow {};
  AlertMuteRowBound.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      key: { type: DataTypes.TEXT, primaryKey: true },
      severity: { type: DataTypes.TEXT, allowNull: false },
    },
    { ...options, tableName: 'storage_alert_mutes', modelName: 'AlertMuteRow' },
  );
  return { schedules: ScheduleRowBound, snapshotSchedules: SnapshotScheduleRowBound, mutes: AlertMuteRowBound };
}

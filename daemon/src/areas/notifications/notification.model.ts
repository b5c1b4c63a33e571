import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { NotificationLevel } from '../../../../shared/src/api/notifications.ts';

export class NotificationRow extends Model {
  declare id: number;
  declare userId: number;
  declare type: string;
  declare appId: string | null;
  declare level: NotificationLevel;
  declare title: string;
  declare body: string;
  declare link: string | null;
  declare read: boolean;
  declare createdAt: string;
}

export function initNotificationModel(sequelize: Sequelize): typeof NotificationRow {
  NotificationRow.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      type: { type: DataTypes.TEXT, allowNull: false },
      appId: { type: DataTypes.TEXT, allowNull: true },
      level: { type: DataTypes.TEXT, allowNull: false },
      title: { type: DataTypes.TEXT, allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: false },
      link: { type: DataTypes.TEXT, allowNull: true },
      read: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'notifications' },
  );
  return NotificationRow;
}

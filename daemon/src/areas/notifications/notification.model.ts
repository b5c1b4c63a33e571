import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { NotificationLevel } from '../../../../shared/src/api/notifications/notifications.ts';

export class NotificationRow extends Model {
  declare id: number;
  declare userId: number;
  declare type: string;
  declare appId: string | null;
  declare level: NotificationLevel;
  declare title: string;
  declare body: string;
  declare code: string | null;
  /** JSON of the code's params. */
  declare params: string | null;
  declare link: string | null;
  declare read: boolean;
  declare createdAt: string;
}

export function initNotificationModel(sequelize: Sequelize): typeof NotificationRow {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const NotificationRowBound = class extends NotificationRow {};
  NotificationRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      type: { type: DataTypes.TEXT, allowNull: false },
      appId: { type: DataTypes.TEXT, allowNull: true },
      level: { type: DataTypes.TEXT, allowNull: false },
      title: { type: DataTypes.TEXT, allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: false },
      code: { type: DataTypes.TEXT, allowNull: true },
      params: { type: DataTypes.TEXT, allowNull: true },
      link: { type: DataTypes.TEXT, allowNull: true },
      read: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'notifications', modelName: 'NotificationRow' },
  );
  return NotificationRowBound;
}

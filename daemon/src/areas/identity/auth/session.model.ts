import { DataTypes, Model, type Sequelize } from 'sequelize';

export class SessionRow extends Model {
  declare sid: string;
  declare userId: number | null;
  declare data: string;
  /** Epoch milliseconds. */
  declare expiresAt: number;
}

export function initSessionModel(sequelize: Sequelize): typeof SessionRow {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const SessionRowBound = class extends SessionRow {};
  SessionRowBound.init(
    {
      sid: { type: DataTypes.TEXT, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      data: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.INTEGER, allowNull: false },
    },
    { sequelize, tableName: 'sessions', modelName: 'SessionRow' },
  );
  return SessionRowBound;
}

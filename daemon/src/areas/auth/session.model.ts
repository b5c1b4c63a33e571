import { DataTypes, Model, type Sequelize } from 'sequelize';

export class SessionRow extends Model {
  declare sid: string;
  declare userId: number | null;
  declare data: string;
  /** Epoch milliseconds. */
  declare expiresAt: number;
}

export function initSessionModel(sequelize: Sequelize): typeof SessionRow {
  SessionRow.init(
    {
      sid: { type: DataTypes.TEXT, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      data: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.INTEGER, allowNull: false },
    },
    { sequelize, tableName: 'sessions' },
  );
  return SessionRow;
}

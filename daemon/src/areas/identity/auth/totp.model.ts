import { DataTypes, Model, type Sequelize } from 'sequelize';

/** A user's TOTP secret: pending until confirmed (enabled false), then on. The secret never reaches a log. */
export class TotpRow extends Model {
  declare userId: number;
  declare secret: string;
  declare enabled: boolean;
  declare lastStep: number | null;
  declare updatedAt: string;
}

export class RecoveryCodeRow extends Model {
  declare id: number;
  declare userId: number;
  declare codeHash: string;
  declare usedAt: string | null;
}

export interface AuthModels {
  totp: typeof TotpRow;
  recoveryCodes: typeof RecoveryCodeRow;
}

export function initAuthModels(sequelize: Sequelize): AuthModels {
  // A class of its own per database: Sequelize binds a model class to one connection, and
  // one process may open several daemons (tests), so a shared class would follow the last one.
  const TotpRowBound = class extends TotpRow {};
  TotpRowBound.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      secret: { type: DataTypes.TEXT, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      lastStep: { type: DataTypes.INTEGER, allowNull: true },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'user_totp', modelName: 'TotpRow' },
  );
  const RecoveryCodeRowBound = class extends RecoveryCodeRow {};
  RecoveryCodeRowBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      codeHash: { type: DataTypes.TEXT, allowNull: false },
      usedAt: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'recovery_codes', modelName: 'RecoveryCodeRow' },
  );
  return { totp: TotpRowBound, recoveryCodes: RecoveryCodeRowBound };
}

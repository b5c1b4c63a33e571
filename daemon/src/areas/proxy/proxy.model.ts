import { DataTypes, Model, type Sequelize } from 'sequelize';

export type ProxyEntryKind = 'host' | 'redirect' | 'stream' | 'options';

/** One proxy host, redirect host, stream or the options, as JSON: nginx's configuration is generated from these rows. */
export class ProxyEntryRow extends Model {
  declare id: number;
  declare kind: ProxyEntryKind;
  declare data: string;
  declare createdAt: string;
  declare updatedAt: string;
}

export function initProxyEntryModel(sequelize: Sequelize): typeof ProxyEntryRow {
  // A class of its own per database, as every model here (one process may open several daemons).
  const Bound = class extends ProxyEntryRow {};
  Bound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      kind: { type: DataTypes.TEXT, allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: false },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'proxy_entries', modelName: 'ProxyEntryRow' },
  );
  return Bound;
}

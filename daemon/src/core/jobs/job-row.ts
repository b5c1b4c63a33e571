import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { JobState } from '../../../../shared/src/api/jobs/jobs.ts';

/** One row of `jobs`; params, progress, error and result are JSON text. */
export class JobRow extends Model {
  declare id: number;
  declare kind: string;
  declare state: JobState;
  declare params: string;
  /** JobTitle as JSON; null for jobs queued before titles existed. */
  declare title: string | null;
  declare userId: number | null;
  declare requestId: string | null;
  declare progress: string | null;
  declare error: string | null;
  declare result: string | null;
  declare createdAt: string;
  declare startedAt: string | null;
  declare finishedAt: string | null;
}

/** A model class of its own per database, so daemons opened one after another in a test process never share one. */
export function initJobModel(sequelize: Sequelize): typeof JobRow {
  const Row = class extends JobRow {};
  Row.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      kind: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      params: { type: DataTypes.TEXT, allowNull: false },
      title: { type: DataTypes.TEXT, allowNull: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      requestId: { type: DataTypes.TEXT, allowNull: true },
      progress: { type: DataTypes.TEXT, allowNull: true },
      error: { type: DataTypes.TEXT, allowNull: true },
      result: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
      startedAt: { type: DataTypes.TEXT, allowNull: true },
      finishedAt: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'jobs', modelName: 'job' },
  );
  return Row;
}

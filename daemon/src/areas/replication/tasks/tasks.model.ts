import { DataTypes, Model, type Sequelize } from 'sequelize';

export class TaskRow extends Model {
  declare id: number;
  declare name: string;
  declare pairingId: number;
  /** JSON: string[]. */
  declare datasets: string;
  declare targetSuffix: string;
  /** JSON: ReplicationSchedule. */
  declare schedule: string;
  /** JSON: ReplicationRetention. */
  declare retention: string;
  declare bandwidthLimit: number | null;
  declare replicateProperties: boolean;
  declare enabled: boolean;
  declare lastRunAt: string | null;
  declare nextRunAt: string | null;
  declare createdAt: string;
}

export class RunRow extends Model {
  declare jobId: number;
  declare taskId: number;
  declare bytes: number;
  declare snapshot: string | null;
}

export interface TaskModels {
  tasks: typeof TaskRow;
  runs: typeof RunRow;
}

export function initTaskModels(sequelize: Sequelize): TaskModels {
  const options = { sequelize, underscored: true, timestamps: false };
  // A class of its own per database: one process may open several daemons (tests).
  const TaskBound = class extends TaskRow {};
  TaskBound.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      pairingId: { type: DataTypes.INTEGER, allowNull: false },
      datasets: { type: DataTypes.TEXT, allowNull: false },
      targetSuffix: { type: DataTypes.TEXT, allowNull: false },
      schedule: { type: DataTypes.TEXT, allowNull: false },
      retention: { type: DataTypes.TEXT, allowNull: false },
      bandwidthLimit: { type: DataTypes.INTEGER, allowNull: true },
      replicateProperties: { type: DataTypes.BOOLEAN, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      lastRunAt: { type: DataTypes.TEXT, allowNull: true },
      nextRunAt: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.TEXT, allowNull: false },
    },
    { ...options, tableName: 'replication_tasks', modelName: 'ReplicationTaskRow' },
  );
  const RunBound = class extends RunRow {};
  RunBound.init(
    {
      jobId: { type: DataTypes.INTEGER, primaryKey: true },
      taskId: { type: DataTypes.INTEGER, allowNull: false },
      bytes: { type: DataTypes.INTEGER, allowNull: false },
      snapshot: { type: DataTypes.TEXT, allowNull: true },
    },
    { ...options, tableName: 'replication_task_runs', modelName: 'ReplicationRunRow' },
  );
  return { tasks: TaskBound, runs: RunBound };
}

import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // No foreign key to the pairing: a task outlives the end of its pairing and then fails its runs with a code.
  await qi.createTable(
    'replication_tasks',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false, unique: true },
      pairing_id: { type: DataTypes.INTEGER, allowNull: false },
      // JSON arrays and objects: read whole with the task, never queried by their parts.
      datasets: { type: DataTypes.TEXT, allowNull: false },
      target_suffix: { type: DataTypes.TEXT, allowNull: false },
      schedule: { type: DataTypes.TEXT, allowNull: false },
      retention: { type: DataTypes.TEXT, allowNull: false },
      bandwidth_limit: { type: DataTypes.INTEGER, allowNull: true },
      replicate_properties: { type: DataTypes.BOOLEAN, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      last_run_at: { type: DataTypes.TEXT, allowNull: true },
      next_run_at: { type: DataTypes.TEXT, allowNull: true },
      created_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  // What a run brought beyond its job's row: state, times and failure stay on the job.
  await qi.createTable(
    'replication_task_runs',
    {
      job_id: { type: DataTypes.INTEGER, primaryKey: true, references: { model: 'jobs', key: 'id' }, onDelete: 'CASCADE' },
      task_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'replication_tasks', key: 'id' }, onDelete: 'CASCADE' },
      bytes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      snapshot: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  await qi.addIndex('replication_task_runs', ['task_id'], { transaction });
}

import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // What a job does as a code with parameters (JSON), made when it is queued; null for jobs from before.
  await qi.addColumn('jobs', 'title', { type: DataTypes.TEXT, allowNull: true }, { transaction });
}

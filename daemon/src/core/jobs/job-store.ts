import { Op } from 'sequelize';
import type { Job, JobProgress, JobTitle } from '../../../../shared/src/api/jobs/jobs.ts';
import type { ProblemBody } from '../../../../shared/src/api/common.ts';
import { isoAt, type Clock } from '../clock.ts';
import type { JobRow } from './job-row.ts';

export const finishedStates = ['succeeded', 'failed', 'cancelled'] as const;
export type FinishedState = (typeof finishedStates)[number];

/** How a run ended, as stored. */
export type Outcome = { state: 'succeeded'; result: Record<string, unknown> | null } | { state: 'failed'; error: ProblemBody } | { state: 'cancelled' };

function parse<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** The Job as the API shows it; `liveProgress` is the newer in-memory progress of a running job. */
export function toJob(row: JobRow, liveProgress?: JobProgress | null): Job {
  return {
    id: row.id,
    kind: row.kind,
    title: parse<JobTitle>(row.title) ?? { code: row.kind, params: {} },
    state: row.state,
    progress: liveProgress ?? parse<JobProgress>(row.progress),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    error: parse<ProblemBody>(row.error),
    result: parse<Record<string, unknown>>(row.result),
    userId: row.userId,
  };
}

/** The jobs table: the engine's only way to it. */
export class JobStore {
  constructor(
    private readonly rows: typeof JobRow,
    private readonly clock: Clock,
  ) {}

  create(kind: string, params: string, title: JobTitle, userId: number | null, requestId: string | null): Promise<JobRow> {
    const empty = { progress: null, error: null, result: null, startedAt: null, finishedAt: null };
    return this.rows.create({ kind, state: 'queued', params, title: JSON.stringify(title), userId, requestId, createdAt: isoAt(this.clock), ...empty });
  }

  find(id: number): Promise<JobRow | null> {
    return this.rows.findByPk(id);
  }

  /** A user's most recent jobs, newest first (ids grow with creation). */
  listForUser(userId: number, limit: number): Promise<JobRow[]> {
    return this.rows.findAll({ where: { userId }, order: [['id', 'DESC']], limit });
  }

  inState(state: 'queued' | 'running'): Promise<JobRow[]> {
    return this.rows.findAll({ where: { state }, order: [['id', 'ASC']] });
  }

  async markRunning(row: JobRow): Promise<void> {
    await row.update({ state: 'running', startedAt: isoAt(this.clock) });
  }

  async finish(row: JobRow, outcome: Outcome, progress: JobProgress | null): Promise<void> {
    await row.update({
      state: outcome.state,
      finishedAt: isoAt(this.clock),
      progress: progress === null ? row.progress : JSON.stringify(progress),
      error: outcome.state === 'failed' ? JSON.stringify(outcome.error) : null,
      result: outcome.state === 'succeeded' && outcome.result !== null ? JSON.stringify(outcome.result) : null,
    });
  }

  /** Removes finished jobs that finished before `cutoffMs`; queued and running jobs always stay. */
  prune(cutoffMs: number): Promise<number> {
    const cutoff = new Date(cutoffMs).toISOString();
    return this.rows.destroy({ where: { state: { [Op.in]: [...finishedStates] }, finishedAt: { [Op.lt]: cutoff } } });
  }
}

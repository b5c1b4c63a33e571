import type { Job } from './api/jobs.ts';

/**
 * Every live topic: its name pattern, the payload of its events and of its snapshot.
 * A topic name is concrete (`jobs/42`); `pattern` matches the family.
 */
export interface TopicSpec<Snapshot, Event> {
  pattern: RegExp;
  /** Phantom fields: types only, never set at run time. */
  snapshot?: Snapshot;
  event?: Event;
}

function topic<Snapshot, Event>(pattern: RegExp): TopicSpec<Snapshot, Event> {
  return { pattern };
}

export type JobEvent = { type: 'changed'; data: Job };

export const topics = {
  job: topic<Job, JobEvent>(/^jobs\/\d+$/),
};

export const topicName = {
  job: (jobId: number) => `jobs/${jobId}`,
};

/** What a client receives for a subscribed topic. */
export interface TopicEvent<T = unknown> {
  topic: string;
  type: string;
  data: T;
}

export type SubscribeAck<S = unknown> =
  | { ok: true; snapshot?: S }
  | { ok: false; problem: import('./errors/index.ts').ProblemDetails };

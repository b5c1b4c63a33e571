import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { describeError } from '../../lib/i18n/i18n.svelte.ts';
import { problemMessage } from '../../lib/i18n/messages.ts';
import { i18n } from '../../lib/i18n/i18n.svelte.ts';
import { live } from '../../lib/live.ts';

export interface TrackedJob {
  job: Job;
  /** What the bar says the job does ("Copying 3 items"). */
  label: string;
  /** A readable message once it failed. */
  error: string | null;
}

const finished = new Set(['succeeded', 'failed', 'cancelled']);
/** A job that ends between its snapshot and its subscription is caught by asking now and then. */
const pollMs = 2000;

/**
 * The app's running jobs, followed on their jobs/<id> topics for the progress bar. A finished
 * job calls `done` once (to reload a list, or to ask about a conflict) and leaves the bar,
 * unless it failed: then its message stays until dismissed.
 */
export class JobTracker {
  jobs = $state<TrackedJob[]>([]);
  private readonly stops = new Map<number, () => void>();

  track(job: Job, label: string, done?: (job: Job) => void): void {
    const tracked: TrackedJob = { job, label, error: null };
    this.jobs.push(tracked);
    let called = false;
    const update = (next: Job) => {
      const item = this.jobs.find((j) => j.job.id === next.id);
      if (item) item.job = next;
      if (!finished.has(next.state) || called) return;
      called = true;
      this.stops.get(next.id)?.();
      this.stops.delete(next.id);
      if (next.state === 'failed') {
        if (item) item.error = next.error ? problemMessage(i18n.language, next.error as ProblemDetails) : describeError(null);
      } else this.dismiss(next.id);
      done?.(next);
    };
    const unsubscribe = live.subscribe('job', topicName.job(job.id), { snapshot: update, event: (e) => update(e.data) });
    const poll = setInterval(() => {
      api.jobs.get({ params: { id: job.id } }).then(update, () => undefined);
    }, pollMs);
    this.stops.set(job.id, () => {
      clearInterval(poll);
      unsubscribe();
    });
    if (finished.has(job.state)) update(job);
  }

  async cancel(id: number): Promise<void> {
    try {
      await api.jobs.cancel({ params: { id } });
    } catch (err) {
      const item = this.jobs.find((j) => j.job.id === id);
      if (item) item.error = describeError(err);
    }
  }

  dismiss(id: number): void {
    this.jobs = this.jobs.filter((j) => j.job.id !== id);
  }

  stop(): void {
    for (const stop of this.stops.values()) stop();
    this.stops.clear();
  }
}

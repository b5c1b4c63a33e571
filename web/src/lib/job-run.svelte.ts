import type { Job } from '../../../shared/src/api/jobs/jobs.ts';
import { topicName } from '../../../shared/src/topics.ts';
import { api } from './api.ts';
import { live } from './live.ts';

const finished = (job: Job) => job.state !== 'queued' && job.state !== 'running';

/**
 * One job the user started (a plan's run, moving homes, ...): asks the box to start it, then
 * follows it through `jobs/<id>` until it ends.
 */
export class JobRun {
  job = $state<Job | null>(null);
  /** The start itself was refused (an expired plan, a plan already run, ...). */
  refused = $state<unknown>(null);
  starting = $state(false);
  private stop: (() => void) | null = null;

  constructor(private readonly on: { accepted(job: Job): void; finished(job: Job): void }) {}

  readonly running = $derived(this.starting || (this.job !== null && !finished(this.job)));

  async start(begin: () => Promise<Job>): Promise<void> {
    this.starting = true;
    this.refused = null;
    try {
      this.track(await begin());
    } catch (err) {
      this.refused = err;
    } finally {
      this.starting = false;
    }
  }

  dispose(): void {
    this.stop?.();
    this.stop = null;
  }

  private track(job: Job): void {
    this.job = job;
    this.on.accepted(job);
    if (finished(job)) return this.on.finished(job);
    const update = (next: Job) => {
      // Events may arrive after a newer snapshot; a finished job never goes back.
      if (this.job && finished(this.job)) return;
      this.job = next;
      if (finished(next)) {
        this.dispose();
        this.on.finished(next);
      }
    };
    this.stop = live.subscribe('job', topicName.job(job.id), {
      snapshot: update,
      event: (event) => update(event.data),
      // Without the live topic the job is still read, just less often.
      ended: () => void this.poll(job.id, update),
    });
  }

  private async poll(id: number, update: (job: Job) => void): Promise<void> {
    while (this.job && !finished(this.job)) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      update(await api.jobs.get({ params: { id } }));
    }
  }
}

import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';

const active = (job: Job) => job.state === 'queued' || job.state === 'running';
/** As many jobs as the topic's snapshot holds. */
const maxShown = 30;

/** The app a job kind belongs to, by the kind's area prefix, for the tray's "open" link. */
const kindApps: Record<string, string> = {
  files: 'org.service.files',
  thumbnails: 'org.service.files',
  shares: 'org.service.control-panel',
  storage: 'org.service.storage-manager',
  apps: 'org.service.app-center',
  store: 'org.service.app-center',
  logs: 'org.service.logs',
};

export function jobApp(kind: string): string | null {
  return kindApps[kind.split('.')[0] ?? ''] ?? null;
}

/**
 * Running and recent jobs of the caller, live: the `jobs` topic announces new jobs and state
 * changes at once; each unfinished job's progress comes from its own `jobs/<id>` topic.
 */
export class JobStore {
  jobs = $state<Job[]>([]);
  readonly running = $derived(this.jobs.filter(active).length);
  private subscriptions = new Map<number, () => void>();

  start(): () => void {
    const stop = live.subscribe('jobsList', topicName.jobsList, {
      snapshot: (jobs) => {
        this.jobs = jobs;
        for (const job of jobs) this.track(job);
      },
      event: (event) => this.update(event.data),
    });
    return () => {
      stop();
      for (const unsubscribe of this.subscriptions.values()) unsubscribe();
      this.subscriptions.clear();
    };
  }

  async cancel(job: Job): Promise<void> {
    await api.jobs.cancel({ params: { id: job.id } });
  }

  /** A new job goes on top; a known one is replaced, unless a later state of it is already here. */
  private update(job: Job): void {
    const known = this.jobs.find((j) => j.id === job.id);
    if (!known) this.jobs = [job, ...this.jobs].slice(0, maxShown);
    else if (active(known) || !active(job)) this.jobs = this.jobs.map((j) => (j.id === job.id ? job : j));
    else return; // A late progress update of a job that has already finished.
    this.track(job);
  }

  private track(job: Job): void {
    if (active(job)) this.follow(job.id);
    else this.unfollow(job.id);
  }

  private follow(id: number): void {
    if (this.subscriptions.has(id)) return;
    const update = (job: Job) => this.update(job);
    this.subscriptions.set(
      id,
      live.subscribe('job', topicName.job(id), { snapshot: update, event: (event) => update(event.data), ended: () => this.unfollow(id) }),
    );
  }

  private unfollow(id: number): void {
    this.subscriptions.get(id)?.();
    this.subscriptions.delete(id);
  }
}

import type { Job } from '../../../../shared/src/api/jobs.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';

const active = (job: Job) => job.state === 'queued' || job.state === 'running';
/** How often the tray looks for jobs started elsewhere (no topic announces new jobs). */
const refreshMs = 15_000;

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

/** Running and recent jobs of the caller: GET /api/jobs, then each unfinished one live through `jobs/<id>`. */
export class JobStore {
  jobs = $state<Job[]>([]);
  readonly running = $derived(this.jobs.filter(active).length);
  private subscriptions = new Map<number, () => void>();

  start(): () => void {
    void this.refresh();
    const timer = setInterval(() => void this.refresh(), refreshMs);
    return () => {
      clearInterval(timer);
      for (const stop of this.subscriptions.values()) stop();
      this.subscriptions.clear();
    };
  }

  async refresh(): Promise<void> {
    try {
      this.jobs = (await api.jobs.list()).slice(0, 30);
    } catch (err) {
      console.warn('jobs list failed', err);
      return;
    }
    for (const job of this.jobs) if (active(job)) this.follow(job.id);
  }

  async cancel(job: Job): Promise<void> {
    await api.jobs.cancel({ params: { id: job.id } });
  }

  private follow(id: number): void {
    if (this.subscriptions.has(id)) return;
    const update = (job: Job) => {
      this.jobs = this.jobs.map((j) => (j.id === job.id ? job : j));
      if (!active(job)) this.unfollow(id);
    };
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

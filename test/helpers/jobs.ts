import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { JobEngine } from '../../daemon/src/core/jobs/job-engine.ts';
import type { TestClient } from './daemon.ts';

/** Test-only job kinds, registered on a test daemon's engine (never shipped in the daemon). */
export function registerTestKinds(jobs: JobEngine) {
  const waiting = new Map<number, () => void>();
  const started: number[] = [];
  // Runs until the test opens it, reporting progress; gives up 300 ms after being asked to stop.
  jobs.register<{ label?: string }, { opened: boolean }>('test.gate', {
    run: async ({ jobId, signal, progress }) => {
      started.push(jobId);
      progress(1, 3, 'steps');
      await new Promise<void>((resolve, reject) => {
        waiting.set(jobId, resolve);
        signal.addEventListener('abort', () => setTimeout(() => reject(signal.reason), 300));
      });
      progress(3, 3, 'steps');
      return { opened: true };
    },
  });
  jobs.register<{ n: number }, { n: number }>('test.echo', { concurrency: 4, run: async ({ params }) => ({ n: params.n }) });
  jobs.register('test.crash', {
    run: async () => {
      throw new Error('EIO: reading /dev/secret-disk');
    },
  });
  return {
    started,
    open(jobId: number) {
      waiting.get(jobId)?.();
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a job over HTTP until `done` says so. */
export async function waitForJob(client: TestClient, id: number, done: (job: Job) => boolean, what = 'the job'): Promise<Job> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const job = await client.api.jobs.get({ params: { id } });
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last state ${job.state}`);
    await sleep(10);
  }
}

export const isFinished = (job: Job) => job.state !== 'queued' && job.state !== 'running';

export async function waitUntil(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

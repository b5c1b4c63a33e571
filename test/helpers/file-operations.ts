import { readdirSync } from 'node:fs';
import type { FileOperationRequest } from '../../shared/src/api/files/operations.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { TestClient } from './daemon.ts';
import { isFinished, sleep } from './jobs.ts';

/** Polls a job until it has finished; copies of large files need longer than the jobs helper waits. */
export async function finished(client: TestClient, id: number, timeoutMs = 20_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await client.api.jobs.get({ params: { id } });
    if (isFinished(job)) return job;
    if (Date.now() > deadline) throw new Error(`timed out waiting for job ${id}; last state ${job.state}`);
    await sleep(20);
  }
}

/** Asks for a file operation and answers the finished job. */
export async function runOperation(client: TestClient, body: FileOperationRequest): Promise<Job> {
  const job = await client.api.fileOperations.run({ body });
  return finished(client, job.id);
}

/** Hidden temporary entries the daemon writes while a copy or upload is under way. */
export function tempEntries(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((p) => p.split('/').some((s) => s.startsWith('.cellar-upload-')));
}

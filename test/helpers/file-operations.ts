import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FileOperationRequest } from '../../shared/src/api/files/operations.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import { startTestDaemon, type TestClient } from './daemon.ts';
import { isFinished, sleep } from './jobs.ts';
import { makeShare, removeTempFolders, tempFolder } from './shares.ts';

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

/** One share as the file-operation tests use it: its id and its folder on disk. */
export interface ShareFolder {
  id: number;
  folder: string;
}

/**
 * The file-operation tests' box: a daemon with two shares (Alpha and Beta) and a folder outside
 * every share holding a secret, which no operation may reach. Call in `before`, close in `after`.
 */
export async function twoShareBox() {
  const box = await startTestDaemon();
  const admin = await box.signIn();
  const one = await makeShare(admin, 'Alpha');
  const two = await makeShare(admin, 'Beta');
  const a: ShareFolder = { id: one.share.id, folder: one.folder };
  const b: ShareFolder = { id: two.share.id, folder: two.folder };
  const outside = tempFolder('cellar-outside-');
  writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  const at = (share: ShareFolder, rel: string) => path.join(share.folder, rel);
  return {
    box,
    admin,
    a,
    b,
    outside,
    at,
    write(share: ShareFolder, rel: string, content: string | Buffer) {
      mkdirSync(path.dirname(at(share, rel)), { recursive: true });
      writeFileSync(at(share, rel), content);
    },
    read: (share: ShareFolder, rel: string) => readFileSync(at(share, rel), 'utf8'),
    src: (rel: string, share = a) => ({ shareId: share.id, path: rel }),
    async close() {
      await box.close();
      removeTempFolders();
    },
  };
}

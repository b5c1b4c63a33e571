import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { ShareDetails, ShareInfo } from '../../shared/src/api/shares/shares.ts';
import type { StoragePlanPreview } from '../../shared/src/api/storage/plans.ts';
import type { UserSummary } from '../../shared/src/api/identity/users.ts';
import type { HttpsAnswer } from '../helpers/https-client.ts';

/**
 * The file services of the installed box in the virtual machine, used as an owner does: a pool on
 * the third disk and a share on it through the storage plans the desktop shows, then SMB with
 * smbclient and SFTP with OpenSSH's sftp through forwarded loopback ports.
 */

type Send = (method: string, path: string, body?: unknown) => Promise<HttpsAnswer>;

export const poolName = 'vmpool';
export const shareName = 'VmData';

export interface FileClients {
  /** The loopback ports forwarded to the guest's 445 and 22. */
  smbPort: number;
  sshPort: number;
  username: string;
  password: string;
  /** A folder for the batches, the known_hosts file and fetched files. */
  dir: string;
}

export interface Run {
  code: number | null;
  output: string;
}

const run = (argv: string[]): Run => {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
};

async function json<T>(answer: Promise<HttpsAnswer>, status: number): Promise<T> {
  const a = await answer;
  expect(a.status, a.body).to.equal(status);
  return (a.body ? JSON.parse(a.body) : null) as T;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a plan as the desktop does (preview, then run) and waits for its job. */
async function runPlan(send: Send, plan: StoragePlanPreview): Promise<Job> {
  let job = await json<Job>(send('POST', `/api/storage/plans/${plan.planId}/run`), 202);
  for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline; await sleep(2000)) {
    job = await json<Job>(send('GET', `/api/jobs/${job.id}`), 200);
    if (job.state !== 'queued' && job.state !== 'running') return job;
  }
  throw new Error(`the plan ${plan.kind} did not end: ${JSON.stringify(job)}`);
}

/** The pool on `disk` and a share on it with SMB and SFTP on, the administrator granted read and write; answers the share. */
export async function makePoolAndShare(send: Send, disk: string, username: string): Promise<ShareDetails> {
  const pool = await json<StoragePlanPreview>(
    send('POST', '/api/storage/plans', { kind: 'pool.create', pool: poolName, layout: 'stripe', disks: [disk] }),
    200,
  );
  const poolJob = await runPlan(send, pool);
  expect(poolJob.state, JSON.stringify(poolJob.error)).to.equal('succeeded');
  const share = await json<StoragePlanPreview>(send('POST', '/api/shares/plans', { kind: 'share.create', pool: poolName, name: shareName }), 200);
  const shareJob = await runPlan(send, share);
  expect(shareJob.state, JSON.stringify(shareJob.error)).to.equal('succeeded');
  const made = (await json<ShareInfo[]>(send('GET', '/api/shares'), 200)).find((s) => s.name === shareName);
  expect(made, 'the share in the list').to.include({ kind: 'dataset' });
  const users = await json<UserSummary[]>(send('GET', '/api/users'), 200);
  const owner = users.find((u) => u.username === username);
  // The installation gives its administrator both protocols.
  expect(owner, 'the administrator').to.include({ smb: true, sftp: true });
  await json(send('PUT', `/api/shares/${made!.id}/grants`, { grants: [{ subjectType: 'user', subjectId: owner!.id, level: 'readWrite' }] }), 200);
  return json<ShareDetails>(send('PATCH', `/api/shares/${made!.id}`, { smbEnabled: true, sftpEnabled: true }), 200);
}

/** smbclient against the share through the forwarded port; `command` is smbclient's own command line. */
export function smb(c: FileClients, command: string): Run {
  return run(['smbclient', `//127.0.0.1/${shareName}`, '-p', String(c.smbPort), '-U', `${c.username}%${c.password}`, '-c', command]);
}

/** An sftp batch as the administrator, trusting only the guest's host key read from its disk. */
export function sftp(c: FileClients, hostKey: string, commands: string[]): Run {
  const knownHosts = path.join(c.dir, 'known_hosts');
  // The key file's own line is "<type> <base64> <comment>": the known_hosts entry names the forwarded port.
  const [type, blob] = hostKey.trim().split(/\s+/);
  writeFileSync(knownHosts, `[127.0.0.1]:${c.sshPort} ${type} ${blob}\n`);
  const batch = path.join(c.dir, 'sftp-batch');
  writeFileSync(batch, `${commands.join('\n')}\n`);
  // sftp -b sets BatchMode, which turns passwords off: BatchMode=no lets sshpass answer.
  return run([
    'sshpass',
    '-p',
    c.password,
    'sftp',
    '-o',
    'BatchMode=no',
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    `UserKnownHostsFile=${knownHosts}`,
    '-o',
    'PubkeyAuthentication=no',
    '-o',
    'ConnectTimeout=60',
    '-P',
    String(c.sshPort),
    '-b',
    batch,
    `${c.username}@127.0.0.1`,
  ]);
}

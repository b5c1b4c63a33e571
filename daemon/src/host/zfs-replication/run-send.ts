import { spawn, type ChildProcess } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import type { CommandRunner } from '../command-runner.ts';
import { estimateSendBytes } from './estimate.ts';
import { classifySsh, type ReplicationFailure } from './failure-codes.ts';
import { sshArgv, type ReplicationTarget } from './ssh-target.ts';
import { ThrottleCounter } from './throttle.ts';

export interface SendProgress {
  bytes: number;
  /** The stream's expected size (estimate.ts); grows to `bytes` when the estimate was short. */
  estimate: number;
}

export interface SendRequest {
  target: ReplicationTarget;
  /** The source snapshot, `pool/dataset@snap`. */
  snapshot: string;
  /** The incremental base (`pool/dataset@snap`), the newest snapshot both sides hold; none for a full send. */
  base?: string;
  /** The dataset below the pairing's parent on the target, as the forced command takes it. */
  remoteSuffix: string;
  /** Bytes per second; none for no limit. */
  bandwidthLimit?: number | null;
  signal?: AbortSignal;
  onProgress?: (progress: SendProgress) => void;
}

export type SendOutcome = { ok: true; bytes: number; estimate: number } | ReplicationFailure;

/** Keeps the last bytes of a child's stderr: enough for its message, bounded whatever it prints. */
function tail(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => (text = (text + d).slice(-16_384)));
  return () => text;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('close', (code) => resolve(code));
  });

/**
 * One `zfs send [-i base] snap` into the target's forced command `receive <suffix>` over ssh:
 * children with argument arrays, send's stdout piped into ssh's stdin through dd (counting) or,
 * with a bandwidth limit, through a counting, rate-limiting stream in Node (one chunk at a time;
 * backpressure reaches zfs send through the pipe). Cancel kills them all: the target's zfs
 * receive then reads a cut stream, which it refuses
 * and removes, so a half-received snapshot never stays visible there. zfs-fuse has no
 * `receive -s` (resume tokens): a cut send starts over from the last common snapshot next run.
 */
export async function runSend(runner: CommandRunner, request: SendRequest): Promise<SendOutcome> {
  const sendArgv = ['zfs', 'send', ...(request.base ? ['-i', request.base] : []), request.snapshot];
  const ssh = sshArgv(request.target, 'receive', request.remoteSuffix);
  if (!runner.apply) {
    // Development mode: say what would run, send nothing.
    await runner.run(sendArgv);
    await runner.run(ssh);
    return { ok: true, bytes: 0, estimate: 0 };
  }
  if (request.signal?.aborted) return { ok: false, code: 'cancelled', detail: 'cancelled before the send began', bytes: 0 };
  let estimate = await estimateSendBytes(runner, request.snapshot, request.base);
  let lastReport = 0;
  const report = (bytes: number, force = false) => {
    const now = performance.now();
    if (!force && now - lastReport < 250) return;
    lastReport = now;
    estimate = Math.max(estimate, bytes);
    request.onProgress?.({ bytes, estimate });
  };
  const limit = request.bandwidthLimit ?? null;
  const counter = new ThrottleCounter(limit, (bytes) => report(bytes));

  const sender = spawn(sendArgv[0]!, sendArgv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
  // Without a limit, dd counts the stream between zfs send and ssh instead of Node: copying it
  // through Node cost 40 % of the rate on two cores where zfs, ssh and sshd already share the CPU.
  // dd's `status=progress` prints its byte count every second and the exact total at the end.
  const counting =
    limit === null ? spawn('dd', ['bs=128K', 'status=progress'], { stdio: [sender.stdout!, 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } }) : null;
  const receiver = spawn(ssh[0]!, ssh.slice(1), { stdio: [counting ? counting.stdout! : 'pipe', 'ignore', 'pipe'], shell: false });
  const sendErr = tail(sender);
  const sshErr = tail(receiver);
  let cancelled = false;
  const killBoth = () => {
    for (const child of [sender, counting, receiver]) if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  const onAbort = () => {
    cancelled = true;
    killBoth();
  };
  request.signal?.addEventListener('abort', onAbort, { once: true });
  const spawnErrors: string[] = [];
  for (const child of [sender, counting, receiver]) child?.on('error', (err) => spawnErrors.push(err.message));

  let piped: Promise<unknown>;
  if (counting) {
    // The children hold the pipes now; our ends would stay open, unread.
    sender.stdout!.destroy();
    counting.stdout!.destroy();
    let text = '';
    counting.stderr!.setEncoding('utf8');
    counting.stderr!.on('data', (d: string) => {
      text = (text + d).slice(-4096);
      const counts = [...text.matchAll(/(?:^|[\r\n])(\d+) bytes/g)];
      const last = counts.at(-1);
      if (last) counter.bytes = Number(last[1]);
      report(counter.bytes);
    });
    piped = exited(counting);
  } else {
    // A broken pipe (ssh gone) ends the pipeline with an error; the exit codes say what happened.
    piped = pipeline(sender.stdout!, counter, receiver.stdin!).catch(() => undefined);
  }
  // Whichever side fails first takes the other down, so neither waits for ever on a dead peer;
  // the first failure is the one to report.
  let sendFailedFirst = false;
  const [sendCode, sshCode] = await Promise.all([
    exited(sender).then((code) => {
      if (code !== 0 && receiver.exitCode === null && receiver.signalCode === null) {
        sendFailedFirst = true;
        receiver.kill('SIGTERM');
      }
      return code;
    }),
    exited(receiver).then((code) => {
      if (code !== 0) sender.kill('SIGTERM');
      return code;
    }),
  ]);
  await piped;
  request.signal?.removeEventListener('abort', onAbort);
  const bytes = counter.bytes;
  report(bytes, true);

  if (cancelled) return { ok: false, code: 'cancelled', detail: 'the run was cancelled', bytes };
  if (spawnErrors.length) return { ok: false, code: 'send-failed', detail: spawnErrors.join('; '), bytes };
  if (sendFailedFirst) return { ok: false, code: 'send-failed', detail: sendErr().trim(), bytes };
  const code = classifySsh({ exitCode: sshCode, stderr: sshErr(), streamStarted: bytes > 0 });
  if (code) return { ok: false, code, detail: sshErr().trim(), bytes };
  if (sendCode !== 0) return { ok: false, code: 'send-failed', detail: sendErr().trim(), bytes };
  return { ok: true, bytes, estimate };
}

/**
 * A source box's replication run inside its network namespace (`ip netns exec <source> node
 * --import tsx this-file '<json>'`), so the ssh child reaches the target over the veth pair as a
 * daemon in that namespace would, without any test-only option in the engine. Prints one JSON
 * line per progress report and the outcome last, with the run's time in milliseconds; closing
 * stdin cancels the run.
 */
import { createLogger } from '../../daemon/src/core/logger.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { replicateOnce, type ReplicateRequest } from '../../daemon/src/host/zfs-replication/replicate.ts';

const request = JSON.parse(process.argv[2] ?? '{}') as Omit<ReplicateRequest, 'signal' | 'onProgress'>;
const runner = new CommandRunner(createLogger({ level: 'error', console: false, sinks: [] }), true);
const controller = new AbortController();
process.stdin.on('end', () => controller.abort());
process.stdin.resume();
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const started = performance.now();
const outcome = await replicateOnce(runner, { ...request, signal: controller.signal, onProgress: (progress) => print({ progress }) });
print({ outcome, ms: performance.now() - started });
process.exit(0);

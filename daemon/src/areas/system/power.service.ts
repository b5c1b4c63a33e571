import type { CutJob, PowerAction, PowerAnswer, PowerState } from '../../../../shared/src/api/system/overview.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { CommandRunner } from '../../host/command-runner.ts';

export interface PowerDeps {
  /** Runs systemctl on a box; in development mode it logs the command instead. */
  runner: CommandRunner;
  unfinishedJobs(): Promise<Job[]>;
  clock: Clock;
  logger: Logger;
  /** Time between the answer and the act, so the answer and the page's last requests get out. */
  delayMs: number;
}

const commands: Record<PowerAction, string[]> = {
  restart: ['systemctl', 'reboot'],
  shutdown: ['systemctl', 'poweroff'],
};

/**
 * Restart and shut-down. Unfinished jobs are named in the answer; they are told when systemd
 * stops the daemon (SIGTERM closes the job engine, which aborts every running job's signal).
 */
export class PowerService {
  private pending: { action: PowerAction; at: number; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly deps: PowerDeps) {}

  async state(): Promise<PowerState> {
    const pending = this.pending && { action: this.pending.action, at: new Date(this.pending.at).toISOString() };
    return { pending, jobs: await this.cutJobs() };
  }

  async request(principal: Principal, action: PowerAction): Promise<PowerAnswer> {
    this.refuseWhilePending();
    const jobs = await this.cutJobs();
    // Asked again once the jobs are listed: a request that came in meanwhile may be pending now, and its timer would act too.
    this.refuseWhilePending();
    const at = this.deps.clock.now() + this.deps.delayMs;
    const timer = setTimeout(
      () =>
        void this.act(action).catch((err: unknown) =>
          this.deps.logger.error('power command failed', { component: 'system', action, error: err instanceof Error ? err.message : String(err) }),
        ),
      this.deps.delayMs,
    );
    this.pending = { action, at, timer };
    this.deps.logger.info(action === 'restart' ? 'restart requested' : 'shut-down requested', {
      logCode: action === 'restart' ? 'system.restartRequested' : 'system.shutDownRequested',
      component: 'system',
      action,
      userId: principal.id,
      username: principal.username,
      at: new Date(at).toISOString(),
      jobs: jobs.map((j) => j.id),
    });
    return { action, at: new Date(at).toISOString(), jobs };
  }

  private refuseWhilePending(): void {
    if (this.pending) throw new ProblemError('system.power.pending', { action: this.pending.action, at: new Date(this.pending.at).toISOString() });
  }

  private async cutJobs(): Promise<CutJob[]> {
    return (await this.deps.unfinishedJobs()).map((j) => ({ id: j.id, kind: j.kind, state: j.state === 'queued' ? 'queued' : 'running', userId: j.userId }));
  }

  close(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
  }

  private async act(action: PowerAction): Promise<void> {
    const { runner, logger } = this.deps;
    const argv = commands[action];
    logger.info(runner.apply ? 'power command' : 'power command (development mode: not run)', { component: 'system', action, argv });
    try {
      await runner.run(argv, { timeoutMs: 30_000 });
    } catch (err) {
      logger.error('power command failed', { component: 'system', action, error: err instanceof Error ? err.message : String(err) });
    }
    // The box goes down on success; a development daemon (or a failed command) takes the next request.
    this.pending = null;
  }
}

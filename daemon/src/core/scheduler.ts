import type { Clock } from './clock.ts';
import type { Logger } from './logger.ts';

/** The answer of a run is ignored; a failure is logged and the next run still comes. */
export type ScheduledWork = (signal: AbortSignal) => Promise<unknown>;

interface Task {
  name: string;
  intervalMs: number;
  work: ScheduledWork;
  nextAt: number;
  running: Promise<void> | null;
}

export interface SchedulerDeps {
  clock: Clock;
  logger: Logger;
  /** How often due tasks are looked for; the clock, not this tick, decides when a task is due. */
  tickMs?: number;
}

/**
 * Periodic work of every area. A task is due by the injected clock, so a test that moves
 * the clock sees the work run on the next tick. A task that is due while its last run
 * still runs skips that run instead of piling up.
 */
export class Scheduler {
  private readonly tasks = new Map<string, Task>();
  private timer: NodeJS.Timeout | null = null;
  private readonly abort = new AbortController();

  constructor(private readonly deps: SchedulerDeps) {}

  /** Runs `work` every `intervalMs`; the first run is at start() unless `delayFirst`. */
  every(name: string, intervalMs: number, work: ScheduledWork, options: { delayFirst?: boolean } = {}): void {
    if (this.tasks.has(name)) throw new Error(`scheduled task ${name} is already registered`);
    const now = this.deps.clock.now();
    this.tasks.set(name, { name, intervalMs, work, nextAt: options.delayFirst ? now + intervalMs : now, running: null });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.deps.tickMs ?? 1000);
    // Periodic work never keeps the process alive on its own.
    this.timer.unref();
    this.tick();
  }

  /** Runs a task now unless its last run still runs; answers whether it ran. */
  async runNow(name: string): Promise<boolean> {
    const task = this.tasks.get(name);
    if (!task) throw new Error(`no scheduled task ${name}`);
    if (task.running) return false;
    await this.launch(task);
    return true;
  }

  /**
   * Stops the ticks, asks running work to stop and waits for it, but not for ever: work that
   * ignores its signal (a host command stuck in the kernel) must not keep the daemon from stopping.
   */
  async stop(graceMs = 5000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.abort.abort();
    const running = [...this.tasks.values()].filter((t) => t.running);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const done = await Promise.race([Promise.all(running.map((t) => t.running)), late]);
    clearTimeout(timer);
    if (done === 'late') {
      const names = running.filter((t) => t.running).map((t) => t.name);
      this.deps.logger.warn('scheduled work did not stop in time; stopping without it', { component: 'scheduler', tasks: names });
    }
  }

  private tick(): void {
    const now = this.deps.clock.now();
    for (const task of this.tasks.values()) {
      if (now < task.nextAt) continue;
      if (task.running) {
        task.nextAt = now + task.intervalMs;
        this.deps.logger.debug('scheduled run skipped: the last one still runs', { component: 'scheduler', task: task.name });
        continue;
      }
      void this.launch(task);
    }
  }

  private launch(task: Task): Promise<void> {
    task.nextAt = this.deps.clock.now() + task.intervalMs;
    // Started on a later microtask, so `running` is set before the work can settle.
    const run = Promise.resolve()
      .then(async () => {
        await task.work(this.abort.signal);
      })
      .catch((err: unknown) => {
        this.deps.logger.error('scheduled work failed', { component: 'scheduler', task: task.name, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => {
        task.running = null;
      });
    task.running = run;
    return run;
  }
}

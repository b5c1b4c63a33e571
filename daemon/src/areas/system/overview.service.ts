import type { SystemOverview } from '../../../../shared/src/api/system/overview.ts';
import { product } from '../../core/product.ts';
import type { CommandRunner } from '../../host/command-runner.ts';
import { buildCommit, machineFacts } from '../../host/machine-info.ts';

/** What the box is: the daemon's version and build, and the machine's facts read fresh on each call (uptime moves). */
export class OverviewService {
  private commit: Promise<string | null> | null = null;

  constructor(private readonly deps: { runner: CommandRunner; startedAt: number }) {}

  async get(): Promise<SystemOverview> {
    // The build does not change while the daemon runs: asked once.
    this.commit ??= buildCommit(this.deps.runner);
    const [commit, facts] = await Promise.all([this.commit, machineFacts()]);
    return { version: product.version, commit, ...facts, daemonStartedAt: new Date(this.deps.startedAt).toISOString() };
  }
}

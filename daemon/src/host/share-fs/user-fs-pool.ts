import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';
import { daemonFs } from './daemon-fs.ts';
import type { ShareFs, ShareFsFor } from './share-fs.ts';
import { UserFsClient } from './user-fs-client.ts';
import type { WorkerIdentity } from './user-fs-protocol.ts';

export interface UserFsPoolDeps {
  /** The user's account: its name and uid; null when the user is gone. */
  account(userId: number): Promise<{ username: string; uid: number } | null>;
  /** Reads the account's groups from the host (`id`), as a login would get them. */
  runner: Pick<CommandRunner, 'read'>;
  logger: Logger;
  /** A worker with nothing to do ends after this long. */
  idleMs?: number;
}

const defaultIdleMs = 60_000;

/**
 * One file worker per user, started on the user's first file call and ended after a minute
 * without one; a worker that died is replaced on the next call. Groups are read anew at each
 * start, so a grant or a group change reaches the next worker.
 */
export class UserFsPool {
  private readonly workers = new Map<number, Promise<UserFsClient>>();
  private readonly idleTimers = new Map<number, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly deps: UserFsPoolDeps) {}

  async forUser(userId: number): Promise<ShareFs> {
    if (this.closed) throw new Error('the user file workers are closed');
    const running = await this.workers.get(userId)?.catch(() => null);
    if (running?.alive) {
      this.keepAlive(userId, running);
      return running;
    }
    const starting = this.start(userId);
    this.workers.set(userId, starting);
    starting.catch(() => this.workers.delete(userId));
    const client = await starting;
    this.keepAlive(userId, client);
    return client;
  }

  /** Ends every worker (the daemon stops). */
  close(): void {
    this.closed = true;
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    for (const worker of this.workers.values())
      // A worker that never started, or fails to stop, is gone with the pool either way.
      void worker.then((w) => w.stop()).catch(() => undefined);
    this.workers.clear();
  }

  private async start(userId: number): Promise<UserFsClient> {
    const account = await this.deps.account(userId);
    if (!account) throw new Error(`user ${userId} has no account`);
    const client = await UserFsClient.start(account.username, await this.identityOf(account));
    client.onIdle = () => this.keepAlive(userId, client);
    this.deps.logger.debug('user file worker started', { component: 'files', user: account.username, pid: client.pid });
    return client;
  }

  private async identityOf(account: { username: string; uid: number }): Promise<WorkerIdentity> {
    const ids = async (flag: string) => (await this.deps.runner.read(['id', flag, account.username])).stdout.trim().split(/\s+/).map(Number);
    const [gid] = await ids('-g');
    if (gid === undefined || !Number.isInteger(gid)) throw new Error(`no primary group for ${account.username}`);
    return { uid: account.uid, gid, groups: await ids('-G') };
  }

  /** (Re)starts the idle clock of a worker; it runs down only while nothing is in flight. */
  private keepAlive(userId: number, client: UserFsClient): void {
    clearTimeout(this.idleTimers.get(userId));
    const timer = setTimeout(() => {
      this.idleTimers.delete(userId);
      if (client.busy) return this.keepAlive(userId, client);
      this.workers.delete(userId);
      client.stop();
    }, this.deps.idleMs ?? defaultIdleMs);
    timer.unref();
    this.idleTimers.set(userId, timer);
  }
}

/**
 * How users' file I/O runs: in workers with each user's identity when `enabled` and the daemon is
 * root (the second wall behind the share checks), else in the daemon itself. `close` ends the workers.
 */
export function userFsFor(enabled: boolean, deps: UserFsPoolDeps): { fsFor: ShareFsFor; close(): void } {
  const pool = enabled && process.getuid?.() === 0 ? new UserFsPool(deps) : null;
  return {
    fsFor: async (userId) => (pool && userId !== null ? pool.forUser(userId) : daemonFs),
    close: () => pool?.close(),
  };
}

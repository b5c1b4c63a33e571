import type { Sequelize, Transaction } from 'sequelize';
import type { PrincipalResolver } from './principal.ts';

type Resolved = Awaited<ReturnType<PrincipalResolver>>;

const writeHooks = ['afterCreate', 'afterUpdate', 'afterDestroy', 'afterUpsert', 'afterBulkCreate', 'afterBulkUpdate', 'afterBulkDestroy'] as const;

/**
 * Resolving a principal reads the user, its own grants and its groups' grants: several
 * queries on every request. This cache keeps the answers until the next write to the
 * database, any model, any table: writes are rare on a box and the rule is simple enough
 * to trust for rights and deactivation. A write inside a transaction invalidates again
 * once it commits, and a lookup that overlapped an invalidation is not kept, so a stale
 * read never lands in the cache.
 */
export class PrincipalCache {
  private generation = 0;
  private readonly entries = new Map<number, Resolved>();

  constructor(private readonly load: PrincipalResolver) {}

  /** Invalidates on every model write of this database. */
  watch(sequelize: Sequelize): this {
    for (const hook of writeHooks) {
      sequelize.addHook(hook, (...args: unknown[]) => {
        this.invalidate();
        const options = args.find((a): a is { transaction?: Transaction | null } => typeof a === 'object' && a !== null && 'transaction' in a);
        options?.transaction?.afterCommit(() => this.invalidate());
      });
    }
    return this;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  readonly resolve: PrincipalResolver = async (userId) => {
    if (this.entries.has(userId)) return this.entries.get(userId) ?? null;
    const started = this.generation;
    const found = await this.load(userId);
    if (this.generation === started) this.entries.set(userId, found);
    return found;
  };
}

import type { Sequelize } from 'sequelize';
import type { PrincipalResolver } from './principal.ts';

type Resolved = Awaited<ReturnType<PrincipalResolver>>;

/** Statements that can change what a principal is; reads leave the cache alone. */
const writeStatement = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;

/**
 * Resolving a principal reads the user, its own grants and its groups' grants: several
 * queries on every request. This cache keeps the answers until the next write to the
 * database, any table, through a model or raw SQL (every statement of the Sequelize instance
 * passes its afterQuery hook): writes are rare on a box and the rule is simple enough to
 * trust for rights and deactivation. A write inside a transaction invalidates again
 * once it commits, and a lookup that overlapped an invalidation is not kept, so a stale
 * read never lands in the cache.
 */
export class PrincipalCache {
  private generation = 0;
  private readonly entries = new Map<number, Resolved>();

  constructor(private readonly load: PrincipalResolver) {}

  /** Invalidates on every write statement run through this database. */
  watch(sequelize: Sequelize): this {
    sequelize.addHook('afterQuery', (options, query) => {
      // AbstractQuery's typings omit the statement it ran; the dialects set `sql` on it.
      if (!writeStatement.test((query as unknown as { sql?: string }).sql ?? '')) return;
      this.invalidate();
      options.transaction?.afterCommit(() => this.invalidate());
    });
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

import { closeSync } from 'node:fs';
import type { CommandRunner } from './command-runner.ts';
import { childPath } from './nofollow-fs.ts';

/** Pairs per getfacl and setfacl run: starting processes dominates; the command line stays below 128 KiB, 4000 descriptors open. */
const batchSize = 2000;
const timeoutMs = 10 * 60_000;

/**
 * Gives copies the owner, group, mode (set-group-ID and the like too) and ACLs of their sources,
 * as `cp -a` does: getfacl dumps the sources and `setfacl --restore` applies the dump to the
 * copies. Both reach the entries through /proc paths of descriptors the daemon holds, never by
 * name. Pairs are held until the batch runs; the batch owns and closes their descriptors.
 */
export class OwnerAclBatch {
  private pairs: { from: number; to: number }[] = [];

  constructor(private readonly runner: CommandRunner) {}

  async add(from: number, to: number): Promise<void> {
    this.pairs.push({ from, to });
    if (this.pairs.length >= batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    const pairs = this.pairs.splice(0);
    try {
      if (pairs.length === 0) return;
      const targets = new Map(pairs.map((p) => [childPath(p.from), childPath(p.to)]));
      // Numeric owners: the dump is applied as it is, whatever the names say.
      const dump = await this.runner.run(['getfacl', '--numeric', '--absolute-names', '--', ...targets.keys()], { timeoutMs });
      const restore = dump.stdout.replace(/^# file: (.*)$/gm, (_line, source: string) => {
        const target = targets.get(source);
        if (target === undefined) throw new Error(`getfacl named an entry it was not given: ${source}`);
        return `# file: ${target}`;
      });
      await this.runner.run(['setfacl', '--restore=-'], { input: restore, timeoutMs });
    } finally {
      closeAll(pairs);
    }
  }

  /** Closes what a failed copy left queued. */
  discard(): void {
    closeAll(this.pairs.splice(0));
  }
}

function closeAll(pairs: readonly { from: number; to: number }[]): void {
  for (const p of pairs) {
    closeSync(p.from);
    closeSync(p.to);
  }
}

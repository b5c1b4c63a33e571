import type { ImportScan, Pool, PoolList, VdevGroup } from '../../../../shared/src/api/storage/storage.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { numberProp } from '../../host/zfs/zfs-get.ts';
import { zfsCommands, type ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import type { PoolStatus } from '../../host/zfs/zpool-status.ts';

export interface PoolsDeps {
  zfs: ZfsDriver;
  clock: Clock;
  publisher: TopicPublisher;
  importDirs: readonly string[];
  /** How often a running scrub's progress is read and published. */
  scrubPollMs: number;
}

const groupsOf = (s: PoolStatus | undefined): VdevGroup[] => (s?.groups ?? []).map((g) => ({ role: g.role, vdevs: g.vdevs }));

/** Pools with vdevs and datasets, scrub control and the import scan. */
export class PoolsService {
  private last: PoolList | null = null;
  private poller: NodeJS.Timeout | null = null;

  constructor(private readonly deps: PoolsDeps) {}

  /** Reads the pools again and publishes them on storage/pools. */
  async refresh(): Promise<PoolList> {
    const { zfs } = this.deps;
    const [rows, statuses, caps] = await Promise.all([zfs.listPools(), zfs.status(), zfs.capabilities()]);
    const pools: Pool[] = await Promise.all(
      rows.map(async (row) => {
        const status = statuses.find((s) => s.name === row.name);
        const objects = await zfs.objects(row.name);
        const datasets = objects
          .filter((o) => o.props.get('type') === 'filesystem')
          .map((o) => ({
            name: o.name,
            usedBytes: numberProp(o, 'used'),
            availableBytes: numberProp(o, 'available'),
            quotaBytes: numberProp(o, 'quota') || null,
            refquotaBytes: numberProp(o, 'refquota') || null,
            mountpoint: o.props.get('mountpoint')?.startsWith('/') ? (o.props.get('mountpoint') ?? null) : null,
            mounted: o.props.get('mounted') === 'yes',
            readOnly: o.props.get('readonly') === 'on',
          }));
        const capacityPercent = row.sizeBytes && row.allocatedBytes !== null ? Math.round((row.allocatedBytes / row.sizeBytes) * 100) : null;
        return {
          name: row.name,
          guid: row.guid,
          health: row.health,
          sizeBytes: row.sizeBytes,
          allocatedBytes: row.allocatedBytes,
          freeBytes: row.freeBytes,
          capacityPercent,
          status: status?.status ?? null,
          action: status?.action ?? null,
          errors: status?.errors ?? null,
          scan: status?.scan ?? { function: null, state: 'none', percent: null, errors: null, text: '' },
          scrubPausable: caps.scrubPause,
          vdevGroups: groupsOf(status),
          datasets,
        };
      }),
    );
    const list = { pools, readAt: new Date(this.deps.clock.now()).toISOString() };
    this.last = list;
    this.deps.publisher.publish(topicName.storagePools, 'changed', list);
    this.followScrubs(list);
    return list;
  }

  /** The pools as last read, without reading: null before the first read. */
  lastRead(): PoolList | null {
    return this.last;
  }

  /** As last read (the first call reads). */
  async list(): Promise<PoolList> {
    return this.last ?? this.refresh();
  }

  async importScan(): Promise<ImportScan> {
    const found = await this.deps.zfs.importScan(this.deps.importDirs);
    return {
      pools: found.map((p) => {
        const importable = /ONLINE|DEGRADED/.test(p.state) && !/cannot be imported/i.test(p.action ?? '');
        return {
          name: p.name,
          id: p.id,
          state: p.state,
          status: p.status,
          action: p.action,
          vdevGroups: groupsOf(p),
          importable,
          reasons: importable ? [] : [p.status ?? p.action ?? p.state],
        };
      }),
    };
  }

  /** Starts a scrub, or resumes a paused one (OpenZFS resumes with the same command). */
  async startScrub(pool: string): Promise<void> {
    await this.require(pool);
    await this.command(zfsCommands.scrubStart(pool), pool);
  }

  async pauseScrub(pool: string): Promise<void> {
    const status = await this.require(pool);
    if (!(await this.deps.zfs.capabilities()).scrubPause) throw new ProblemError('storage.capability.unsupported', { feature: 'scrubPause' });
    if (status.scan.function !== 'scrub' || status.scan.state !== 'scanning') throw new ProblemError('storage.scrub.not_running', { pool });
    await this.command(zfsCommands.scrubPause(pool), pool);
  }

  async stopScrub(pool: string): Promise<void> {
    const status = await this.require(pool);
    const active = status.scan.function === 'scrub' && (status.scan.state === 'scanning' || status.scan.state === 'paused');
    if (!active) throw new ProblemError('storage.scrub.not_running', { pool });
    await this.command(zfsCommands.scrubStop(pool), pool);
  }

  close(): void {
    if (this.poller) clearTimeout(this.poller);
    this.poller = null;
  }

  private async require(pool: string): Promise<PoolStatus> {
    const [status] = await this.deps.zfs.status(pool);
    if (!status || status.name !== pool) throw new ProblemError('storage.pool.not_found', { pool });
    return status;
  }

  private async command(argv: string[], pool: string): Promise<void> {
    const r = await this.deps.zfs.run(argv);
    if (r.exitCode !== 0) throw new ProblemError('storage.command.failed', { pool, command: argv, exitCode: r.exitCode, output: r.stderr.trim() });
    await this.refresh();
  }

  /** While a scrub runs, its progress is read and published every few seconds. */
  private followScrubs(list: PoolList): void {
    if (this.poller || !list.pools.some((p) => p.scan.state === 'scanning')) return;
    this.poller = setTimeout(() => {
      this.poller = null;
      void this.refresh().catch(() => undefined);
    }, this.deps.scrubPollMs);
    this.poller.unref();
  }
}

import type { TimeSettings, TimeSettingsRequest } from '../../../../shared/src/api/system/time.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { knownToRuntime } from '../../core/zoned-time.ts';
import type { TimeHost } from '../../host/time/time-host.ts';
import type { SystemSettingRow } from './system-settings.model.ts';
import { OneAtATime } from '../../core/one-at-a-time.ts';

export interface TimeDeps {
  host: TimeHost;
  settings: typeof SystemSettingRow;
  clock: Clock;
  logger: Logger;
  /** The zone changed: the daily times the box keeps move with it. */
  zoneChanged(from: string, to: string): Promise<void>;
}

type StoredTime = TimeSettingsRequest;
const key = 'time';

/**
 * The box's time zone and time servers. Where the daemon writes the host's files (a box, or a
 * test root) those files are the truth; a development daemon keeps what was set in its database.
 */
export class TimeService {
  private current = 'UTC';
  private readonly serial = new OneAtATime();

  constructor(private readonly deps: TimeDeps) {}

  async init(): Promise<void> {
    this.current = (await this.configured()).timeZone;
  }

  /** The box's zone as of the last read or change: the storage area's schedules ask on every run. */
  zone(): string {
    return this.current;
  }

  async get(): Promise<TimeSettings> {
    const { host, clock } = this.deps;
    const [configured, known, sync, zones] = await Promise.all([this.configured(), host.servers(), host.sync(), this.zones()]);
    return { ...configured, defaultServers: known.defaults, sync, now: new Date(clock.now()).toISOString(), zones };
  }

  /** The zones the box's time zone database knows: what the Time section and the first-run page offer. */
  zones(): Promise<string[]> {
    return this.deps.host.zones();
  }

  /** One change after another: each reads the zone before it, and the schedules move by that difference once. */
  set(body: TimeSettingsRequest): Promise<TimeSettings> {
    return this.serial.run(() => this.setNow(body));
  }

  private async setNow(body: TimeSettingsRequest): Promise<TimeSettings> {
    const { host, logger } = this.deps;
    // The daemon computes schedule times itself: a zone its runtime lacks would be silently UTC.
    if (!(await host.zoneExists(body.timeZone)) || !knownToRuntime(body.timeZone)) throw new ProblemError('system.zone.unknown', { timeZone: body.timeZone });
    const before = await this.configured();
    const servers = body.servers.map((s) => s.toLowerCase());
    const serversChanged = servers.join(' ') !== before.servers.join(' ');
    await host.apply(body.timeZone, servers, serversChanged);
    const stored: StoredTime = { timeZone: body.timeZone, servers };
    await this.deps.settings.upsert({ key, value: JSON.stringify(stored), updatedAt: new Date(this.deps.clock.now()).toISOString() });
    this.current = body.timeZone;
    if (before.timeZone !== body.timeZone) await this.deps.zoneChanged(before.timeZone, body.timeZone);
    logger.info('time settings changed', {
      logCode: 'system.timeChanged',
      component: 'system',
      timeZone: body.timeZone,
      servers,
      previousTimeZone: before.timeZone,
    });
    return this.get();
  }

  private async configured(): Promise<StoredTime> {
    const { host } = this.deps;
    if (!host.writesFiles) {
      const row = await this.deps.settings.findByPk(key);
      if (row) return JSON.parse(row.value) as StoredTime;
    }
    return { timeZone: await host.zone(), servers: (await host.servers()).servers };
  }
}

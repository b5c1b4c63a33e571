import type { AlertSeverity, PoolList, StorageAlert, StorageHealth } from '../../../../shared/src/api/storage/storage.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { SmartState } from '../../host/zfs/smartctl.ts';
import type { StorageModels } from './storage.model.ts';

type CurrentAlert = Omit<StorageAlert, 'muted'>;
const rank: Record<AlertSeverity, number> = { warning: 1, critical: 2 };
export const capacityWarning = 80;
export const capacityCritical = 90;

/** The alerts the pools and disks give right now (without `since`). */
export function evaluateAlerts(pools: PoolList, disks: SmartState[]): Omit<CurrentAlert, 'since'>[] {
  const out: Omit<CurrentAlert, 'since'>[] = [];
  for (const p of pools.pools) {
    if (p.health !== 'ONLINE')
      out.push({
        key: `pool.health:${p.name}`,
        kind: 'pool.health',
        severity: p.health === 'DEGRADED' ? 'warning' : 'critical',
        subject: p.name,
        message: `Pool ${p.name} is ${p.health}`,
      });
    const cap = p.capacityPercent;
    if (cap !== null && cap >= capacityWarning)
      out.push({
        key: `pool.capacity:${p.name}`,
        kind: 'pool.capacity',
        severity: cap >= capacityCritical ? 'critical' : 'warning',
        subject: p.name,
        message: `Pool ${p.name} is ${cap}% full`,
      });
    if (p.scan.function === 'scrub' && (p.scan.errors ?? 0) > 0)
      out.push({
        key: `scrub.errors:${p.name}`,
        kind: 'scrub.errors',
        severity: 'critical',
        subject: p.name,
        message: `The last scrub of ${p.name} found ${p.scan.errors} error(s)`,
      });
  }
  for (const d of disks)
    if (d.health === 'failed')
      out.push({ key: `smart:${d.device}`, kind: 'smart', severity: 'critical', subject: d.device, message: `SMART reports ${d.device} as failing` });
  return out;
}

export interface AlertsDeps {
  models: StorageModels;
  clock: Clock;
  publish(topic: string, type: string, data: unknown): void;
}

/** Current alerts, per-caller mutes that end when the alert goes away or becomes more severe. */
export class AlertsService {
  private current = new Map<string, CurrentAlert>();
  private disks: SmartState[] = [];

  constructor(private readonly deps: AlertsDeps) {}

  async update(pools: PoolList, disks: SmartState[]): Promise<void> {
    const now = new Date(this.deps.clock.now()).toISOString();
    const next = new Map<string, CurrentAlert>();
    for (const a of evaluateAlerts(pools, disks)) {
      const before = this.current.get(a.key);
      next.set(a.key, { ...a, since: before && before.severity === a.severity ? before.since : now });
    }
    const gone = [...this.current.keys()].filter((k) => !next.has(k));
    if (gone.length > 0) await this.deps.models.mutes.destroy({ where: { key: gone } });
    const changed = gone.length > 0 || [...next.values()].some((a) => this.current.get(a.key)?.severity !== a.severity);
    this.current = next;
    this.disks = disks;
    // Each subscriber sees its own mute flags, so the event says only that it changed: read again.
    if (changed) this.deps.publish(topicName.storageAlerts, 'changed', {});
  }

  async health(userId: number): Promise<StorageHealth> {
    const mutes = new Map((await this.deps.models.mutes.findAll({ where: { userId } })).map((m) => [m.key, m.severity]));
    const alerts = [...this.current.values()].map((a) => {
      const muted = mutes.get(a.key);
      return { ...a, muted: muted !== undefined && rank[muted] >= rank[a.severity] };
    });
    const disks = this.disks.map((d) => ({
      name: d.device.replace(/^\/dev\//, ''),
      path: d.device,
      smart: { available: d.available, health: d.health, temperatureC: d.temperatureC, powerOnHours: d.powerOnHours, lastSelfTest: d.lastSelfTest },
    }));
    return { alerts, disks };
  }

  async mute(userId: number, key: string): Promise<StorageHealth> {
    const alert = this.current.get(key);
    if (!alert) throw new ProblemError('storage.alert.not_found', { key });
    await this.deps.models.mutes.upsert({ userId, key, severity: alert.severity });
    return this.health(userId);
  }

  async unmute(userId: number, key: string): Promise<StorageHealth> {
    if (!this.current.has(key)) throw new ProblemError('storage.alert.not_found', { key });
    await this.deps.models.mutes.destroy({ where: { userId, key } });
    return this.health(userId);
  }
}

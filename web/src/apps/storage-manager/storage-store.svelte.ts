import type { Pool, StorageHealth } from '../../../../shared/src/api/storage/storage.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';

/**
 * The pools and alerts every view of the Storage Manager shows, kept live: `storage/pools`
 * carries the whole list on each change (scrub progress too); `storage/alerts` only says that
 * alerts changed, since mute flags are per caller, so they are read again.
 */
export class StorageStore {
  pools = $state<Pool[] | null>(null);
  health = $state<StorageHealth | null>(null);
  poolsError = $state<unknown>(null);
  alertsError = $state<unknown>(null);

  readonly activeAlerts = $derived(this.health?.alerts.filter((a) => !a.muted) ?? []);

  start(): () => void {
    void this.reloadPools();
    void this.reloadAlerts();
    const stopPools = live.subscribe('storagePools', topicName.storagePools, {
      snapshot: (list) => (this.pools = list.pools),
      event: (event) => (this.pools = event.data.pools),
    });
    const stopAlerts = live.subscribe('storageAlerts', topicName.storageAlerts, {
      snapshot: (health) => (this.health = health),
      event: () => void this.reloadAlerts(),
    });
    return () => {
      stopPools();
      stopAlerts();
    };
  }

  pool(name: string): Pool | undefined {
    return this.pools?.find((p) => p.name === name);
  }

  async reloadPools(): Promise<void> {
    try {
      this.pools = (await api.storage.pools()).pools;
      this.poolsError = null;
    } catch (err) {
      this.poolsError = err;
    }
  }

  async reloadAlerts(): Promise<void> {
    try {
      this.health = await api.storage.alerts();
      this.alertsError = null;
    } catch (err) {
      this.alertsError = err;
    }
  }

  setHealth(health: StorageHealth): void {
    this.health = health;
  }
}

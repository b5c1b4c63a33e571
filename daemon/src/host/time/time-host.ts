import type { TimeSync } from '../../../../shared/src/api/system/time.ts';
import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';
import { cellarSources, chronyConf, readServers, writeServers } from './chrony-config.ts';
import { readSync } from './chrony-tracking.ts';
import { listZones, readZone, writeZone, zoneEffects, zoneExists } from './zone-files.ts';

export interface TimeHostDeps {
  /** "/" on a box; a folder in tests, where the zone files and chrony's configuration are written instead. */
  root: string;
  /** Whether files are written (a box, or tests with their own root); otherwise what would change is logged. */
  writeFiles: boolean;
  /** Runs chrony's restart on a box; in development mode it only logs the command. */
  runner: CommandRunner;
  logger: Logger;
}

/** The box's time zone files and chrony: read, written, and chrony told. */
export class TimeHost {
  constructor(private readonly deps: TimeHostDeps) {}

  get writesFiles(): boolean {
    return this.deps.writeFiles;
  }

  zone(): Promise<string> {
    return readZone(this.deps.root);
  }

  zones(): Promise<string[]> {
    return listZones(this.deps.root);
  }

  zoneExists(zone: string): Promise<boolean> {
    return zoneExists(this.deps.root, zone);
  }

  servers(): Promise<{ servers: string[]; defaults: string[] }> {
    return readServers(this.deps.root);
  }

  sync(): Promise<TimeSync> {
    return readSync(this.deps.runner);
  }

  async apply(zone: string, servers: readonly string[], serversChanged: boolean): Promise<void> {
    const { root, logger } = this.deps;
    if (!this.deps.writeFiles) {
      logger.debug('would write', { component: 'host', ...zoneEffects(root, zone), chrony: { conf: chronyConf(root), sources: cellarSources(root), servers } });
    } else {
      await writeZone(root, zone);
      await writeServers(root, servers);
    }
    // chronyd reads its sources at start; a restart is how a changed pool line takes effect. Not running: nothing to tell.
    if (serversChanged) await this.deps.runner.run(['systemctl', 'try-restart', 'chrony.service'], { allowFailure: true, timeoutMs: 30_000 });
  }
}

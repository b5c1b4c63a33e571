import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import type { Logger } from '../../core/logger.ts';
import type { TimeHost } from '../../host/time/time-host.ts';
import type { SystemSettingRow } from './system-settings.model.ts';
import { TimeService } from './time.service.ts';

/**
 * Two zone changes at once. The host here is a stand-in that answers like a test root does (real
 * zone files are exercised by the Time API and system tests); what this test looks at is only the
 * order: each change must see the zone the one before it set, so the box's daily times move once.
 */
describe('time settings: changes one after another', () => {
  it('moves the daily times from each zone to the next, never twice from the same one', async () => {
    let zone = 'Europe/Berlin';
    const host = {
      writesFiles: true,
      zone: async () => zone,
      zones: async () => ['Europe/Berlin', 'Asia/Tokyo', 'America/New_York'],
      zoneExists: async () => true,
      servers: async () => ({ servers: [], defaults: [] }),
      sync: async () => ({ state: 'notRunning' }),
      // Writing the files takes a moment, as on a disk: the window the second change raced into.
      apply: async (next: string) => {
        await delay(20);
        zone = next;
      },
    } as unknown as TimeHost;
    const settings = { upsert: async () => undefined, findByPk: async () => null } as unknown as typeof SystemSettingRow;
    const logger = { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
    const moves: string[] = [];
    const service = new TimeService({ host, settings, clock: { now: () => 0 }, logger, zoneChanged: async (from, to) => void moves.push(`${from}>${to}`) });
    await service.init();
    await Promise.all([service.set({ timeZone: 'Asia/Tokyo', servers: [] }), service.set({ timeZone: 'America/New_York', servers: [] })]);
    expect(moves).to.deep.equal(['Europe/Berlin>Asia/Tokyo', 'Asia/Tokyo>America/New_York']);
    expect(service.zone()).to.equal('America/New_York');
  });
});

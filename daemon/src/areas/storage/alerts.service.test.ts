import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Pool, PoolList } from '../../../../shared/src/api/storage/storage.ts';
import { createLogger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { parseSmartctl, type SmartState } from '../../host/zfs/smartctl.ts';
import { parseZpoolList } from '../../host/zfs/zpool-list.ts';
import { parseZpoolStatus } from '../../host/zfs/zpool-status.ts';
import { AlertsService, capacityCritical, capacityWarning, evaluateAlerts } from './alerts.service.ts';
import { initStorageModels } from './storage.model.ts';

// Pool and disk states are parsed from recorded tool outputs (test/fixtures/*/README.md names
// each source); only capacityPercent is set by hand, to walk across the thresholds.
const fixtures = path.join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures');
const zfsFixture = (name: string) => readFileSync(path.join(fixtures, 'zfs', name), 'utf8');
const smart = (device: string, name: string): SmartState => parseSmartctl(device, readFileSync(path.join(fixtures, 'smartctl', name), 'utf8'));

function poolFrom(statusFile: string, capacityPercent: number | null = null): Pool {
  const [status] = parseZpoolStatus(zfsFixture(statusFile));
  if (!status) throw new Error(`no pool in ${statusFile}`);
  const [row] = parseZpoolList(zfsFixture('zfs-fuse-zpool-list.txt'));
  return {
    name: status.name,
    guid: row!.guid,
    health: status.state,
    sizeBytes: row!.sizeBytes,
    allocatedBytes: row!.allocatedBytes,
    freeBytes: row!.freeBytes,
    capacityPercent,
    status: status.status,
    action: status.action,
    errors: status.errors,
    scan: status.scan,
    scrubPausable: false,
    vdevGroups: status.groups.map((g) => ({ role: g.role, vdevs: g.vdevs })),
    datasets: [],
  };
}
const list = (...pools: Pool[]): PoolList => ({ pools, readAt: '2026-11-22T00:00:00.000Z' });
const healthy = () => poolFrom('zfs-fuse-zpool-status-scrubbed.txt', 0);

describe('storage alert rules', () => {
  it('gives no alert for a healthy pool with a clean scrub and a passing disk', () => {
    expect(evaluateAlerts(list(healthy()), [smart('/dev/sda', 'scrutiny-smart-ata-failed-scrutiny.excerpt.json')])).to.deep.equal([]);
  });

  it('warns on a DEGRADED pool and is critical on a FAULTED one', () => {
    const degraded = poolFrom('openzfs-docs-8000-2Q-status.txt');
    const faulted = poolFrom('openzfs-docs-8000-K4-faulted.txt');
    const alerts = evaluateAlerts(list(degraded), []);
    expect(alerts).to.deep.equal([{ key: 'pool.health:test', kind: 'pool.health', severity: 'warning', subject: 'test', message: 'Pool test is DEGRADED' }]);
    expect(evaluateAlerts(list(faulted), [])[0]).to.include({ key: 'pool.health:test', severity: 'critical' });
  });

  it('warns from 80 % full and is critical from 90 %', () => {
    const at = (cap: number | null) => evaluateAlerts(list(poolFrom('zfs-fuse-zpool-status.txt', cap)), []).filter((a) => a.kind === 'pool.capacity');
    expect([capacityWarning, capacityCritical]).to.deep.equal([80, 90]);
    expect(at(null)).to.deep.equal([]);
    expect(at(79)).to.deep.equal([]);
    expect(at(80)).to.deep.equal([
      { key: 'pool.capacity:capool', kind: 'pool.capacity', severity: 'warning', subject: 'capool', message: 'Pool capool is 80% full' },
    ]);
    expect(at(89)[0]?.severity).to.equal('warning');
    expect(at(90)[0]?.severity).to.equal('critical');
  });

  it('is critical on a scrub that found errors, not on a resilver or a clean scrub', () => {
    const errors = poolFrom('zfs-fuse-zpool-status-scrub-errors.txt', 40);
    expect(evaluateAlerts(list(errors), [])).to.deep.equal([
      {
        key: `scrub.errors:${errors.name}`,
        kind: 'scrub.errors',
        severity: 'critical',
        subject: errors.name,
        message: `The last scrub of ${errors.name} found 37 error(s)`,
      },
    ]);
    expect(evaluateAlerts(list(poolFrom('zfs-fuse-zpool-status.txt', 0)), [])).to.deep.equal([]);
  });

  it('is critical on a disk SMART reports failing; unknown SMART and a passed NVMe with media errors give none', () => {
    const alerts = evaluateAlerts(list(), [
      smart('/dev/sdc', 'scrutiny-smart-fail2.excerpt.json'),
      smart('/dev/sda', 'scrutiny-smart-fail.json'),
      smart('/dev/vda', 'smartctl-7.3-virtual-disk-captured-here.json'),
      smart('/dev/nvme0', 'scrutiny-smart-nvme-failed.json'),
    ]);
    expect(alerts).to.deep.equal([
      { key: 'smart:/dev/sdc', kind: 'smart', severity: 'critical', subject: '/dev/sdc', message: 'SMART reports /dev/sdc as failing' },
    ]);
  });
});

describe('storage alert mutes', () => {
  const logger = createLogger({ level: 'error', console: false, sinks: [] });
  let dir: string;
  let db: Sequelize;
  let alerts: AlertsService;
  let published: string[];
  let now = Date.UTC(2026, 10, 22, 12);
  const ids = { ana: 0, ben: 0 };
  const keyOf = 'pool.capacity:capool';
  const capacity = (cap: number) => list(poolFrom('zfs-fuse-zpool-status.txt', cap));
  const shown = async (userId: number) => (await alerts.health(userId)).alerts.map((a) => [a.key, a.severity, a.muted]);
  const mutes = async () => db.query('SELECT user_id AS userId, key, severity FROM storage_alert_mutes ORDER BY user_id', { type: QueryTypes.SELECT });

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-alerts-'));
    db = await openDatabase(path.join(dir, 'cellar.sqlite'), logger);
    await migrate(db, logger);
    for (const name of ['ana', 'ben'] as const) {
      await db.query(
        "INSERT INTO users (username, display_name, password_hash, admin, active, language, created_at, updated_at, uid) VALUES (?, ?, 'x', 1, 1, 'en', '', '', ?)",
        {
          replacements: [name, name, name === 'ana' ? 30001 : 30002],
        },
      );
      const [row] = await db.query<{ id: number }>('SELECT id FROM users WHERE username = ?', { replacements: [name], type: QueryTypes.SELECT });
      ids[name] = row!.id;
    }
    published = [];
    alerts = new AlertsService({ models: initStorageModels(db), clock: { now: () => now }, publish: (topic, type) => published.push(`${topic} ${type}`) });
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes a change when an alert appears, and keeps its since while it stays', async () => {
    await alerts.update(capacity(82), []);
    expect(published).to.deep.equal(['storage/alerts changed']);
    const since = (await alerts.health(ids.ana)).alerts[0]?.since;
    now += 60_000;
    await alerts.update(capacity(83), []);
    expect(published).to.have.length(1);
    expect((await alerts.health(ids.ana)).alerts[0]?.since).to.equal(since);
  });

  it('mutes for the caller only, and unmutes', async () => {
    const answer = await alerts.mute(ids.ana, keyOf);
    expect(answer.alerts.map((a) => a.muted)).to.deep.equal([true]);
    expect(await shown(ids.ana)).to.deep.equal([[keyOf, 'warning', true]]);
    expect(await shown(ids.ben)).to.deep.equal([[keyOf, 'warning', false]]);
    expect((await alerts.unmute(ids.ana, keyOf)).alerts[0]?.muted).to.equal(false);
    expect(await mutes()).to.deep.equal([]);
  });

  it('shows a muted alert again when it becomes more severe, and not when it eases back', async () => {
    await alerts.mute(ids.ana, keyOf);
    await alerts.update(capacity(91), []);
    expect(await shown(ids.ana)).to.deep.equal([[keyOf, 'critical', false]]);
    await alerts.mute(ids.ana, keyOf);
    expect(await shown(ids.ana)).to.deep.equal([[keyOf, 'critical', true]]);
    await alerts.update(capacity(85), []);
    expect(await shown(ids.ana)).to.deep.equal([[keyOf, 'warning', true]]);
  });

  it('drops the mute when the alert goes away, so a new one shows', async () => {
    await alerts.mute(ids.ben, keyOf);
    expect(await mutes()).to.have.length(2);
    published.length = 0;
    await alerts.update(capacity(10), []);
    expect(published).to.deep.equal(['storage/alerts changed']);
    expect(await shown(ids.ana)).to.deep.equal([]);
    expect(await mutes()).to.deep.equal([]);
    await alerts.update(capacity(81), []);
    expect(await shown(ids.ana)).to.deep.equal([[keyOf, 'warning', false]]);
    expect(await shown(ids.ben)).to.deep.equal([[keyOf, 'warning', false]]);
  });

  it('refuses to mute or unmute an alert that is not current', async () => {
    for (const call of [() => alerts.mute(ids.ana, 'pool.health:capool'), () => alerts.unmute(ids.ana, 'pool.health:capool')]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ProblemError);
      expect((err as ProblemError).code).to.equal('storage.alert.not_found');
    }
  });

  it('lists each disk with its SMART state', async () => {
    await alerts.update(capacity(0), [smart('/dev/sdc', 'scrutiny-smart-fail2.excerpt.json')]);
    const health = await alerts.health(ids.ana);
    expect(health.disks).to.deep.equal([
      {
        name: 'sdc',
        path: '/dev/sdc',
        smart: { available: true, health: 'failed', temperatureC: 25, powerOnHours: 65592, lastSelfTest: health.disks[0]?.smart.lastSelfTest ?? null },
      },
    ]);
    expect(health.alerts.map((a) => a.key)).to.deep.equal(['smart:/dev/sdc']);
  });
});

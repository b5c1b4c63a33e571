import { defaultRegion, type HealthResponse, type SetupInfo, type SystemRegion } from '../../../../shared/src/api/system/system.ts';
import type { Mode } from '../../config/config.ts';
import type { Logger } from '../../core/logger.ts';
import { product } from '../../core/product.ts';
import type { SystemSettingRow } from './system-settings.model.ts';

export interface SystemDeps {
  mode: Mode;
  startedAt: number;
  /** Whether first-run setup still applies (see SetupInfo.firstRun). */
  firstRun: () => Promise<boolean>;
  /** Whether the first page must ask for the one-time setup code (see SetupInfo.setupCode). */
  setupCode: () => boolean;
  settings: typeof SystemSettingRow;
  logger: Logger;
  /** SHA-256 fingerprint of the box's root certificate, for the sign-in page's download link. */
  rootCaFingerprint: () => Promise<string | null>;
  /** The box's time zone (the time area's, built later). */
  timeZone: () => string;
}

export class SystemService {
  constructor(private readonly deps: SystemDeps) {}

  health(): HealthResponse {
    return { status: 'ok', version: product.version, uptimeSeconds: Math.round((Date.now() - this.deps.startedAt) / 1000) };
  }

  async setup(): Promise<SetupInfo> {
    return {
      product: product.name,
      version: product.version,
      mode: this.deps.mode,
      ...(await this.region()),
      timeZone: this.deps.timeZone(),
      firstRun: await this.deps.firstRun(),
      installer: this.deps.mode === 'installer',
      setupCode: this.deps.setupCode(),
      boxName: await this.boxName(),
      rootCaFingerprint: await this.deps.rootCaFingerprint(),
    };
  }

  /** The box's language and region; the defaults until an administrator sets them. */
  async region(): Promise<SystemRegion> {
    const row = await this.deps.settings.findByPk('region');
    if (!row) return { ...defaultRegion };
    const stored = JSON.parse(row.value) as SystemRegion;
    return { language: stored.language, region: stored.region };
  }

  async boxName(): Promise<string | null> {
    const row = await this.deps.settings.findByPk('boxName');
    return row ? (JSON.parse(row.value) as string) : null;
  }

  async setBoxName(name: string): Promise<void> {
    await this.deps.settings.upsert({ key: 'boxName', value: JSON.stringify(name), updatedAt: new Date().toISOString() });
    this.deps.logger.info('box name changed', { logCode: 'system.boxNameChanged', component: 'system', boxName: name });
  }

  async setRegion(region: SystemRegion): Promise<SystemRegion> {
    const value: SystemRegion = { language: region.language, region: region.region };
    await this.deps.settings.upsert({ key: 'region', value: JSON.stringify(value), updatedAt: new Date().toISOString() });
    this.deps.logger.info('region settings changed', { logCode: 'system.regionChanged', component: 'system', ...value });
    return value;
  }
}

import type { HealthResponse, SetupInfo } from '../../../../shared/src/api/system.ts';
import type { Mode } from '../../config/config.ts';
import { product } from '../../core/product.ts';

export interface SystemDeps {
  mode: Mode;
  startedAt: number;
  /** Whether first-run setup still applies (see SetupInfo.firstRun). */
  firstRun: () => Promise<boolean>;
}

export class SystemService {
  constructor(private readonly deps: SystemDeps) {}

  health(): HealthResponse {
    return { status: 'ok', version: product.version, uptimeSeconds: Math.round((Date.now() - this.deps.startedAt) / 1000) };
  }

  async setup(): Promise<SetupInfo> {
    // Language and region are the defaults until the System area's region settings exist; the
    // installer mode is not built yet, so the daemon never runs from an installer medium.
    return {
      product: product.name,
      version: product.version,
      mode: this.deps.mode,
      language: 'en',
      region: null,
      firstRun: await this.deps.firstRun(),
      installer: false,
    };
  }
}

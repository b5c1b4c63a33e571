import type { HealthResponse, SetupInfo } from '../../../../shared/src/api/system.ts';
import type { Mode } from '../../config/config.ts';
import { product } from '../../core/product.ts';

export interface SystemDeps {
  mode: Mode;
  startedAt: number;
}

export class SystemService {
  constructor(private readonly deps: SystemDeps) {}

  health(): HealthResponse {
    return { status: 'ok', version: product.version, uptimeSeconds: Math.round((Date.now() - this.deps.startedAt) / 1000) };
  }

  setup(): SetupInfo {
    return { product: product.name, version: product.version, mode: this.deps.mode, language: 'en', region: null, firstRun: false, installer: false };
  }
}

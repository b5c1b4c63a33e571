import type { Request } from 'express';
import { claimHeader, type installerRoutes } from '../../../../shared/src/api/installer/installer.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { InstallerClaim } from './claim.ts';
import { readInstallId } from './install-id.ts';
import type { InstallerService } from './installer.service.ts';

const claimOf = (req: Request) => req.get(claimHeader) || undefined;

/** The medium's installer: everything after the claim needs the claim's secret. */
export function installerHandlers(service: InstallerService, claim: InstallerClaim): AreaHandlers<typeof installerRoutes> {
  const holder = (req: Request) => claim.check(claimOf(req));
  return {
    installId: () => {
      throw new ProblemError('installer.install_id.absent');
    },
    status: () => service.status(),
    claim: ({ req }) => service.claim(claimOf(req), req.ip ?? ''),
    options: ({ req }) => {
      holder(req);
      return service.options();
    },
    networkTest: ({ req }) => {
      holder(req);
      return service.networkTest();
    },
    startNetworkTest: ({ req, body }) => {
      holder(req);
      return service.startNetworkTest(body);
    },
    install: ({ req, body }) => {
      holder(req);
      return service.startInstall(body);
    },
    reboot: ({ req, res }) => {
      holder(req);
      // 'close' follows the answer's end, or a console that left before it.
      service.reboot(new Promise((resolve) => res.once('close', () => resolve())));
    },
  };
}

/** An installed box (or a development daemon): its install id, and no installer. */
export function installedHandlers(dataDir: string): AreaHandlers<typeof installerRoutes> {
  const inactive = () => {
    throw new ProblemError('installer.mode.inactive');
  };
  return {
    installId: async () => {
      const found = await readInstallId(dataDir);
      if (!found) throw new ProblemError('installer.install_id.absent');
      return found;
    },
    status: inactive,
    claim: inactive,
    options: inactive,
    networkTest: inactive,
    startNetworkTest: inactive,
    install: inactive,
    reboot: inactive,
  };
}

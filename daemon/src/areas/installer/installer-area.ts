import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import { api } from '../../../../shared/src/api/index.ts';
import type { Config } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { product } from '../../core/product.ts';
import { registerArea, type RouteDeps } from '../../http/register-routes.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { DiskProbe } from '../../host/disks/disk-probe.ts';
import { MdnsAnnouncer } from '../../host/installer/mdns-announcer.ts';
import { NetworkTester } from '../../host/installer/network-test.ts';
import { ChrootRunner, writeTargetOwner } from '../../host/installer/target-accounts.ts';
import { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { DiskGuard } from '../storage/disk-guard.ts';
import { seedBox } from './box-seed.ts';
import { InstallerClaim } from './claim.ts';
import { readInstallId } from './install-id.ts';
import { mdnsServiceTypes, mdnsTxt } from '../../../../shared/src/mdns.ts';
import { installedHandlers, installerHandlers } from './installer.routes.ts';
import { InstallerService } from './installer.service.ts';
import { openOnMedium } from './medium-gate.ts';

/** Seams of installer mode for tests; each defaults to what the medium needs. */
export interface InstallerAreaOptions {
  /** Run the installation's and the network test's commands (default: in installer mode). */
  apply?: boolean;
  /** Restart the machine on POST /api/installer/reboot (default: in installer mode); otherwise only logged. */
  reboot?: boolean;
  /** Loop devices count as target disks (tests on sparse files). */
  includeLoopDevices?: boolean;
  /** Smallest system disk (default 8 GiB). */
  minDiskBytes?: number;
  /** mDNS announcement on every interface; default on a box and the medium, off in development mode (tests announce only inside a network namespace). */
  mdns?: boolean;
  /** How long a claim lives after its holder's last call (default 10 minutes). */
  claimLifetimeMs?: number;
  /** How long a claim lives in all, however often renewed (default 60 minutes). */
  claimMaxMs?: number;
  registryUrl?: string;
}

export interface InstallerAreaDeps {
  config: Readonly<Config>;
  logger: Logger;
  clock: Clock;
  options?: InstallerAreaOptions;
}

/** Paths below /api the medium still answers besides the installer: health, the sign-in page's setup info, the API's documentation. */

/**
 * The installer area: on the installation medium (`BOX_MODE=installer`) the installer and a gate
 * that refuses every other operation; elsewhere the install id. Both announce themselves by mDNS.
 */
export function createInstallerArea(deps: InstallerAreaDeps) {
  const { config, logger, clock } = deps;
  const o = deps.options ?? {};
  const medium = config.mode === 'installer';
  const runner = new CommandRunner(logger, o.apply ?? medium);
  const claim = new InstallerClaim({
    clock,
    lifetimeMs: o.claimLifetimeMs ?? 10 * 60 * 1000,
    maxMs: o.claimMaxMs ?? 60 * 60 * 1000,
    // The console shows the same code: the owner compares both before going on.
    show: (code) => {
      if (config.logToConsole) process.stdout.write(`\nCellar installer: a console claimed this box. Its code is ${code}\n\n`);
      logger.info('installer claimed', { component: 'installer', code });
    },
  });
  const minDiskBytes = o.minDiskBytes ?? 8 * 1024 ** 3;
  const zfs = new ZfsDriver(runner);
  // A medium without ZFS has no pools: the guard then judges disks by everything else.
  const status = () => zfs.status().catch((err: unknown) => (err instanceof ProblemError && err.code === 'host.tool.missing' ? [] : Promise.reject(err)));
  const guard = new DiskGuard({ probe: new DiskProbe(runner, { includeLoopDevices: o.includeLoopDevices ?? false }), zfs: { status }, minDiskBytes });
  const service = medium
    ? new InstallerService({
        version: product.version,
        clock,
        logger,
        claim,
        guard,
        minDiskBytes,
        runner,
        network: new NetworkTester({ runner, clock, logger, registryUrl: o.registryUrl ?? 'http://deb.debian.org/debian/dists/bookworm/InRelease' }),
        image: config.installerImage,
        targetDir: path.join(config.dataDir, 'target'),
        seedBox,
        writeOwner: (root, owner) => writeTargetOwner(new ChrootRunner(logger, runner.apply, root), owner),
        reboot: async () => void (await new CommandRunner(logger, o.reboot ?? medium).run(['systemctl', 'reboot'])),
      })
    : null;
  const announcer = (o.mdns ?? config.mode !== 'development') ? new MdnsAnnouncer(logger) : null;

  const announce = async (server: Server) => {
    const port = (server.address() as AddressInfo).port;
    const installId = service?.installId ?? (await readInstallId(config.dataDir))?.installId ?? '';
    const txt = mdnsTxt({ installId, version: product.version, scheme: config.https ? 'https' : 'http' });
    const type = medium ? mdnsServiceTypes.installer : mdnsServiceTypes.installed;
    announcer?.start({ type, name: `${medium ? 'Cellar installer' : 'Cellar'} ${hostname()}`, port, txt });
  };

  return {
    service,
    mount(router: Router, routeDeps: RouteDeps): void {
      registerArea(router, api.installer, service ? installerHandlers(service, claim) : installedHandlers(config.dataDir), routeDeps);
      if (!medium) return;
      router.use('/api', (req, _res, next) => {
        if (openOnMedium(req.method, req.path)) next();
        else next(new ProblemError('installer.mode.only', { operation: `${req.method} ${req.originalUrl.split('?')[0]}` }));
      });
    },
    /** Announces the daemon once its server listens (the port is known only then); answers the server. */
    attach<S extends Server>(server: S): S {
      server.once('listening', () => void announce(server).catch((err: unknown) => logger.warn('mdns failed', { component: 'installer', error: String(err) })));
      return server;
    },
    async close(): Promise<void> {
      await service?.settled();
      await announcer?.stop();
    },
  };
}

export type InstallerArea = ReturnType<typeof createInstallerArea>;

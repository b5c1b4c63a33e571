import type { Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { api } from '../../../../shared/src/api/index.ts';
import type { Config } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { product } from '../../core/product.ts';
import { nodeCipherList } from '../../core/tls-ciphers.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { DiskProbe } from '../../host/disks/disk-probe.ts';
import { MdnsAnnouncer } from '../../host/installer/mdns-announcer.ts';
import { NetworkTester } from '../../host/installer/network-test.ts';
import { reachableAddresses, writeScreen } from '../../host/installer/screen-file.ts';
import { ChrootRunner, writeTargetOwner } from '../../host/installer/target-accounts.ts';
import { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { DiskGuard } from '../storage/disk-guard.ts';
import { makeBoxAuthority } from './box-authority.ts';
import { seedBox, type DaemonFactory } from './box-seed.ts';
import { InstallerClaim } from './claim.ts';
import { readInstallId } from './install-id.ts';
import { mdnsServiceTypes, mdnsTxt } from '../../../../shared/src/mdns.ts';
import { installedHandlers, installerHandlers } from './installer.routes.ts';
import { InstallerService } from './installer.service.ts';
import { openOnMedium } from '../../http/medium-gate.ts';
import { makeMediumKey } from './medium-key.ts';
import { screenText } from './screen.ts';

/** Seams of installer mode for tests; each defaults to what the medium needs. */
export interface InstallerAreaOptions {
  /** Run the installation's and the network test's commands (default: in installer mode). */
  apply?: boolean;
  /** Restart the machine on POST /api/installer/reboot (default: in installer mode); otherwise only logged. A function replaces the restart (tests watch when it runs). */
  reboot?: boolean | (() => Promise<void>);
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
  /** The file the medium's screen text is written to (default `<state dir>/screen`, so /run/cellar-installer/screen). */
  screenFile?: string;
  /** How often the screen looks for changed addresses and a claim whose time is up (default 5 s). */
  screenRefreshMs?: number;
}

export interface InstallerAreaDeps {
  config: Readonly<Config>;
  logger: Logger;
  clock: Clock;
  /** Builds the daemon that seeds an installed box's data (daemon.ts passes its own createDaemon). */
  createDaemon: DaemonFactory;
  options?: InstallerAreaOptions;
}

/**
 * The installer area: on the installation medium (`BOX_MODE=installer`) the installer and a gate
 * that refuses every other operation; elsewhere the install id. Both announce themselves by mDNS.
 */
export async function createInstallerArea(deps: InstallerAreaDeps) {
  const { config, logger, clock } = deps;
  const o = deps.options ?? {};
  const medium = config.mode === 'installer';
  const runner = new CommandRunner(logger, o.apply ?? medium);
  const claimMaxMs = o.claimMaxMs ?? 60 * 60 * 1000;
  // Screen updates start once the server listens (its port is part of the addresses).
  let refreshScreen = (): void => undefined;
  const claim = new InstallerClaim({ clock, lifetimeMs: o.claimLifetimeMs ?? 10 * 60 * 1000, maxMs: claimMaxMs, changed: () => refreshScreen() });
  // The medium serves HTTPS with a key made now; the console pins it once the owner compared its fingerprint.
  const key = medium ? await makeMediumKey(config.dataDir, clock.now()) : null;
  const systemReboot = (apply: boolean) => async () => void (await new CommandRunner(logger, apply).run(['systemctl', 'reboot']));
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
        seedBox: (dataDir, request) => seedBox(deps.createDaemon, dataDir, request),
        makeAuthority: (dataDir, hostname) => makeBoxAuthority(dataDir, hostname, clock.now()),
        writeOwner: (root, owner) => writeTargetOwner(new ChrootRunner(logger, runner.apply, root), owner),
        reboot: typeof o.reboot === 'function' ? o.reboot : systemReboot(o.reboot ?? medium),
        fingerprint: key!.fingerprint,
      })
    : null;
  const announcer = (o.mdns ?? config.mode !== 'development') ? new MdnsAnnouncer(logger) : null;

  const announce = async (server: Server) => {
    const port = (server.address() as AddressInfo).port;
    const installId = service?.installId ?? (await readInstallId(config.dataDir))?.installId ?? '';
    const txt = mdnsTxt({ installId, version: product.version, scheme: medium || config.https ? 'https' : 'http' });
    const type = medium ? mdnsServiceTypes.installer : mdnsServiceTypes.installed;
    announcer?.start({ type, name: `${medium ? 'Cellar installer' : 'Cellar'} ${hostname()}`, port, txt });
  };

  let screenTimer: NodeJS.Timeout | null = null;
  const screenFile = o.screenFile ?? path.join(config.dataDir, 'screen');
  const startScreen = (server: Server) => {
    if (!key) return;
    const { address, port } = server.address() as AddressInfo;
    let shown = '';
    refreshScreen = () => {
      const text = screenText({
        version: product.version,
        addresses: reachableAddresses(address),
        port,
        fingerprint: key.fingerprint,
        claim: claim.view(),
        claimLimitMinutes: Math.round(claimMaxMs / 60_000),
      });
      if (text === shown) return;
      try {
        writeScreen(screenFile, text, config.logToConsole);
        shown = text;
      } catch (err) {
        // The claim goes on without the screen: the owner then sees nothing to compare and does not confirm.
        logger.warn('the screen was not written', { component: 'installer', file: screenFile, error: String(err) });
      }
    };
    refreshScreen();
    // Addresses come late (DHCP) and a claim's time runs out without a call: look again now and then.
    screenTimer = setInterval(() => refreshScreen(), o.screenRefreshMs ?? 5000);
    screenTimer.unref();
  };

  return defineArea({
    service,
    /** The medium's HTTPS server with its own key; null elsewhere (the TLS area's server then). */
    createServer(app: Express): HttpsServer | null {
      if (!key) return null;
      return createHttpsServer({ cert: key.certificatePem, key: key.privateKeyPem, minVersion: 'TLSv1.2', ciphers: nodeCipherList }, app);
    },
    name: 'installer',
    routes: [
      tableRoutes(api.installer, service ? installerHandlers(service, claim) : installedHandlers(config.dataDir)),
      // On the medium the gate follows the installer's own routes and stands before every other area's.
      (root) => {
        if (!medium) return;
        root.use('/api', (req, _res, next) => {
          if (openOnMedium(req.method, req.path)) next();
          else next(new ProblemError('installer.mode.only', { operation: `${req.method} ${req.originalUrl.split('?')[0]}` }));
        });
      },
    ],
    /** Announces the daemon once its server listens (the port is known only then); answers the server. */
    attach<S extends Server>(server: S): S {
      server.once('listening', () => {
        startScreen(server);
        void announce(server).catch((err: unknown) => logger.warn('mdns failed', { component: 'installer', error: String(err) }));
      });
      return server;
    },
    async close(): Promise<void> {
      if (screenTimer) clearInterval(screenTimer);
      refreshScreen = () => undefined;
      await service?.settled();
      await announcer?.stop();
    },
  });
}

export type InstallerArea = Awaited<ReturnType<typeof createInstallerArea>>;

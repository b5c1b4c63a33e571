import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import path from 'node:path';
import type { Express } from 'express';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import { nodeCipherList } from '../../core/tls-ciphers.ts';
import { hostIdentity } from '../../host/host-identity.ts';
import type { TlsAuthorityReplacement } from '../../../../shared/src/api/tls/tls.ts';
import type { NewNotification } from '../notifications/notifications.service.ts';
import type { HostIdentity } from '../../host/host-identity.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { tlsHandlers } from './tls.routes.ts';
import { TlsService, type PresentedCertificate } from './tls.service.ts';
import { TlsStore } from './tls-store.ts';
import { announceRoot } from './root-announcement.ts';
import { tlsBackupPart } from './tls.backup.ts';

export interface TlsAreaDeps {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, 'every'>;
  /** Whether the daemon serves HTTPS (config `https`). */
  https: boolean;
  /** The machine's names and addresses; tests pass fixed ones. */
  host?: () => HostIdentity;
  /** Tells every administrator (the notifications area): the box replaced an outdated authority. */
  notifyAdministrators?: (notification: NewNotification) => Promise<void>;
  /** Where the root's fingerprint is shown at start besides the journal (root-announcement.ts); null: the journal only. */
  screen?: string | null;
}

/** What administrators are told when the box replaced an authority whose root could vouch for any name. */
export function replacementNotification(replacement: TlsAuthorityReplacement): NewNotification {
  return {
    type: 'tls.authority',
    code: 'tls.authority.replaced',
    params: { fingerprint: replacement.previousRootFingerprint },
    title: 'Trust the box again on each device',
    body: `The box replaced its certificate authority: the old root could vouch for any name. Remove the old root (${replacement.previousRootFingerprint}) from each device that trusted it, then trust the new one.`,
    level: 'warning',
    link: '/app/org.service.control-panel/certificates',
  };
}

const maintainIntervalMs = 60 * 60 * 1000;
export const tlsMaintainTask = 'tls.maintain';

export type TlsArea = ReturnType<typeof createTlsArea>;

/** Every context the server gets, the first and each swapped in: setSecureContext keeps no option of the one before. */
const secureContextOf = (presented: PresentedCertificate) =>
  ({ cert: presented.chainPem, key: presented.privateKeyPem, minVersion: 'TLSv1.2', ciphers: nodeCipherList }) as const;

/** Builds the TLS area: the authority and certificates in `<data dir>/tls`, their upkeep, and the daemon's server. */
export function createTlsArea(deps: TlsAreaDeps) {
  const store = new TlsStore(path.join(deps.dataDir, 'tls'), path.join(deps.dataDir, 'tls-secret'));
  let httpsServer: HttpsServer | null = null;
  // Others that present the box's certificate too (the reverse proxy's default server).
  const presentedListeners: ((presented: PresentedCertificate) => void)[] = [];
  const service = new TlsService({
    store,
    clock: deps.clock,
    logger: deps.logger,
    https: deps.https,
    host: deps.host ?? hostIdentity,
    // New connections get the new certificate; open ones (and their live topics) keep theirs.
    presentedChanged: (presented) => {
      httpsServer?.setSecureContext(secureContextOf(presented));
      for (const listener of presentedListeners) listener(presented);
    },
    authorityReplaced: (replacement) => {
      deps
        .notifyAdministrators?.(replacementNotification(replacement))
        .catch((err: unknown) => deps.logger.warn('administrators were not told of the replaced authority', { component: 'tls', error: String(err) }));
    },
  });
  // A box made its authority and certificate before listening: the first check can wait an interval.
  deps.scheduler.every(tlsMaintainTask, maintainIntervalMs, () => service.maintain(), { delayFirst: true });
  return defineArea({
    name: 'tls',
    routes: [tableRoutes(api.tls, tlsHandlers(service))],
    service,
    store,
    /** The tls part of a backup: the authority and the certificates in this folder. */
    backupPart: tlsBackupPart(store),
    /** Calls `listener` whenever the certificate the box presents changes. */
    onPresentedChanged: (listener: (presented: PresentedCertificate) => void) => presentedListeners.push(listener),
    /** The daemon's server: HTTPS with the presented certificate, or plain HTTP. */
    async createServer(app: Express): Promise<Server> {
      // An authority already made is loaded at start over HTTP too: one of the old kind is replaced now, not at its first use.
      const announce = () => announceRoot(deps.logger, store.rootPem()!, deps.screen ?? null);
      if (!deps.https) {
        if (store.rootPem() !== null) await service.ready().then(announce);
        return createHttpServer(app);
      }
      await service.ready();
      announce();
      httpsServer = createHttpsServer(secureContextOf(service.presented()), app);
      return httpsServer;
    },
  });
}

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { api } from '../../../../shared/src/api/index.ts';
import { topicName, topics } from '../../../../shared/src/topics.ts';
import type { Config } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider, TopicPublisher } from '../../core/topics/topic-provider.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { NginxHost } from '../../host/nginx/nginx-host.ts';
import { StreamFirewall } from '../../host/nftables/stream-firewall.ts';
import { defineArea, type AreaStart } from '../area.ts';
import type { SqliteSessionStore } from '../identity/auth/session-store.ts';
import { LoginThrottle } from '../identity/auth/throttle.ts';
import type { GroupsService } from '../identity/users/groups.service.ts';
import type { UsersService } from '../identity/users/users.service.ts';
import type { TlsArea } from '../tls/tls.area.ts';
import { boxLifetimeDays } from '../tls/tls.service.ts';
import { ProxyAccess } from './proxy-access.ts';
import { ProxyGrants } from './proxy-grants.ts';
import { initProxyEntryModel } from './proxy.model.ts';
import { proxyBackupPart } from './proxy.backup.ts';
import { proxyHandlers } from './proxy.routes.ts';
import { ProxyService } from './proxy.service.ts';

/** Seams of the reverse proxy for tests: loopback ports, a network namespace for nftables. */
export interface ProxyOptions {
  /** Ports nginx answers on; given, nginx runs in development mode too (as its own master under the data directory). */
  ports?: { http: number; https: number };
  /** Listen on this address only (tests: 127.0.0.1); default every address. */
  address?: string | null;
  /** Run nft inside this network namespace (system tests). */
  netns?: string;
  /** Apply the firewall in development mode too. */
  firewall?: boolean;
}

export interface ProxyAreaDeps {
  db: Sequelize;
  config: Readonly<Config>;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, 'every'>;
  topics: TopicPublisher;
  tls: TlsArea;
  /** Box sessions: a protected host's cookie lives as long as the session it came from. */
  sessionStore: Pick<SqliteSessionStore, 'isAlive' | 'ended'>;
  /** Who is an active user, an administrator, in which groups. */
  identity: { users: Pick<UsersService, 'principal'>; groups: Pick<GroupsService, 'list'> };
  options?: ProxyOptions;
}

const streamModule = '/usr/lib/nginx/modules/ngx_stream_module.so';
const maintainIntervalMs = 60 * 60 * 1000;

/** Builds the reverse proxy: rows, nginx under `<data dir>/proxy`, the streams' firewall, sign-in for protected hosts. */
export function createProxyArea(deps: ProxyAreaDeps) {
  const { config, logger } = deps;
  const box = config.mode === 'box';
  const ports = deps.options?.ports ?? (box ? { http: 80, https: 443 } : { http: 8080, https: 8443 });
  const run = box || deps.options?.ports !== undefined;
  const runner = new CommandRunner(logger, run);
  const nginx = new NginxHost({ dir: path.join(config.dataDir, 'proxy'), runner, logger, run });
  const firewall = new StreamFirewall({ runner: new CommandRunner(logger, box || deps.options?.firewall === true), netns: deps.options?.netns });
  const rows = initProxyEntryModel(deps.db);
  let daemonUrl: string | null = null;
  // The web interface's port as it listens (7484 on a box; a free one in tests).
  const boxPort = () => (daemonUrl ? Number(new URL(daemonUrl).port) : config.port || 7484);
  // Told to nginx only (in its configuration): its X-Real-IP is believed when this comes with it.
  const forwarderKey = randomBytes(32).toString('base64url');
  // Reads the hosts through the service, built next (called only once requests come).
  const hostsOf = async () => (await service.state()).hosts;
  const access = new ProxyAccess({
    clock: deps.clock,
    hosts: hostsOf,
    host: async (id) => (await hostsOf()).find((h) => h.id === id) ?? null,
    sessionAlive: async (sid) => (await deps.sessionStore.isAlive(sid)) !== null,
    user: (userId) => deps.identity.users.principal(userId),
    groupIdsOf: async (userId) => (await deps.identity.groups.list()).filter((g) => g.members.some((m) => m.id === userId)).map((g) => g.id),
    throttle: new LoginThrottle(deps.db, undefined, () => deps.clock.now()),
    grants: new ProxyGrants(deps.db, () => deps.clock.now()),
    ports: () => ports,
  });
  const service: ProxyService = new ProxyService({
    db: deps.db,
    rows,
    nginx,
    firewall,
    access,
    clock: deps.clock,
    logger,
    changed: (settings) => deps.topics.publish(topicName.proxy, 'changed', settings),
    context: () => ({
      runtimeDir: nginx.runtimeDir,
      address: deps.options?.address ?? null,
      ports,
      // Before the daemon listens nginx is only validated: the address it would ask is then the configured one.
      daemonUrl: daemonUrl ?? `http://127.0.0.1:${config.port}`,
      boxPort: boxPort(),
      streamModule: existsSync(streamModule) ? streamModule : null,
      forwarderKey,
    }),
    tls: {
      issue: async (names) => {
        const issued = await deps.tls.service.issueServerCertificate(names, boxLifetimeDays);
        return { chainPem: issued.certificatePem + issued.chainPem, privateKeyPem: issued.privateKeyPem };
      },
      fromCurrentAuthority: (pem) => deps.tls.service.fromCurrentAuthority(pem),
      boxCertificate: async () => {
        await deps.tls.service.ready();
        return deps.tls.service.presented();
      },
    },
  });
  // nginx's default server on the HTTPS port presents the box's certificate: a new one is written and reloaded.
  // A new authority (which reissues the box's certificate too) leaves the hosts' certificates untrusted: they are reissued.
  deps.tls.onPresentedChanged(() => {
    // Before the daemon listens the start applies it anyway.
    if (daemonUrl === null) return;
    service
      .maintain()
      .then(() => service.apply())
      .catch((err: unknown) => logger.error('the proxy kept the previous certificates', { component: 'proxy', error: (err as Error).message }));
  });
  deps.sessionStore.ended.on('ended', (sid: string) => {
    // The cookie is refused anyway once its session is gone (each request asks); this only clears the row.
    access.sessionEnded(sid).catch((err: unknown) => logger.warn('proxy cookies of a session stay', { component: 'proxy', error: (err as Error).message }));
  });
  // Administrators' windows follow the settings.
  const adminTopic: TopicProvider = {
    pattern: topics.proxy.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return service.settings();
    },
    mayRead: async (principal) => principal.admin,
  };
  deps.scheduler.every(
    'proxy.maintain',
    maintainIntervalMs,
    async () => {
      await access.purgeExpired();
      await service.maintain();
    },
    { delayFirst: true },
  );
  return defineArea({
    name: 'proxy',
    topics: [adminTopic],
    routes: [tableRoutes(api.proxy, proxyHandlers(service, access, forwarderKey))],
    service,
    access,
    backupPart: proxyBackupPart({
      db: deps.db,
      now: () => deps.clock.now(),
      state: () => service.state(),
      ports: () => ({ ...ports, box: boxPort() }),
      apply: () => (run ? service.apply() : Promise.resolve()),
    }),
    /** Once the daemon listens (after the server in the daemon's list): nginx serves what the database holds (a box, or ports given). */
    async start(daemon: AreaStart): Promise<void> {
      daemonUrl = daemon.url();
      if (!run) return;
      await service.apply().catch((err: unknown) => logger.error('the proxy did not start', { component: 'proxy', error: (err as Error).message }));
    },
    close: () => nginx.stop(),
  });
}

import type { LookupFunction } from 'node:net';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { api } from '../../../../shared/src/api/index.ts';
import { topicName, topics } from '../../../../shared/src/topics.ts';
import type { Config } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider, TopicPublisher } from '../../core/topics/topic-provider.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { defaultReplicaAccount, ReplicaAccount, type ReplicaAccountOptions } from '../../host/replica-ssh/replica-account.ts';
import { PairingKeys, parseEd25519Line } from '../../host/replica-ssh/ssh-keys.ts';
import { defineArea } from '../area.ts';
import type { SharesService } from '../shares/shares.service.ts';
import type { PoolsService } from '../storage/pools.service.ts';
import type { TlsService } from '../tls/tls.service.ts';
import { PairingOffers } from './pairing-offers.ts';
import { initPairingModel } from './pairings.model.ts';
import { PairingsService } from './pairings.service.ts';
import { parentRefusal } from './parent-check.ts';
import { receiveCommandLine } from './receive-command-line.ts';
import { replicationHandlers } from './replication.routes.ts';

/** Seams of replication for tests: the account pairing keys sign in as, the sshd the source is sent to. */
export interface ReplicationOptions {
  /** Default `cellar-replica` in /var/lib/cellar-replica on a box; below the data directory in development mode. */
  account?: ReplicaAccountOptions;
  /** Create the account for real in development mode too (system tests, as root). */
  accounts?: boolean;
  /** The public half of the SSH host key the source pins (default /etc/ssh/ssh_host_ed25519_key.pub). */
  sshHostKeyFile?: string;
  /** The port sshd listens on, told to the source (default 22). */
  sshPort?: number;
  /** Resolves a target's typed name (tests: loopback names only; default the system's resolver). */
  lookup?: LookupFunction;
}

export interface ReplicationAreaDeps {
  db: Sequelize;
  config: Pick<Config, 'mode' | 'dataDir'>;
  clock: Clock;
  logger: Logger;
  topics: TopicPublisher;
  /** The box's root fingerprint, null while there is none. */
  tls: { service: Pick<TlsService, 'rootFingerprint'> };
  /** The pools with their datasets. */
  pools: Pick<PoolsService, 'refresh'>;
  /** The datasets of shares (homes are shares too). */
  shares: Pick<SharesService, 'datasets'>;
  options?: ReplicationOptions;
}

/**
 * Replication to a second box (issue 33, docs/replication.md): pairing, on either side. The
 * forced command a pairing's key runs on the target (receive-command.ts) is started by sshd, not
 * by the daemon.
 */
export function createReplicationArea(deps: ReplicationAreaDeps) {
  const { options = {}, logger } = deps;
  const box = deps.config.mode === 'box';
  const dataDir = deps.config.dataDir;
  const account = new ReplicaAccount(
    new CommandRunner(logger, box || options.accounts === true),
    options.account ?? (box ? defaultReplicaAccount : { ...defaultReplicaAccount, home: path.join(dataDir, 'replication', 'replica-home') }),
  );
  const hostKeyFile = options.sshHostKeyFile ?? '/etc/ssh/ssh_host_ed25519_key.pub';
  const service = new PairingsService({
    rows: initPairingModel(deps.db),
    offers: new PairingOffers(deps.clock),
    clock: deps.clock,
    logger,
    // The source's keys live in the data directory: ssh-keygen runs in development mode too.
    keys: new PairingKeys({ dir: path.join(dataDir, 'replication', 'pairings'), runner: new CommandRunner(logger, true) }),
    account,
    hostKey: async () => parseEd25519Line(await readFile(hostKeyFile, 'utf8').catch(() => '')),
    sshPort: options.sshPort ?? 22,
    rootFingerprint: () => deps.tls.service.rootFingerprint(),
    parentRefusal: async (parent) => {
      const datasets = (await deps.pools.refresh()).pools.flatMap((pool) => pool.datasets.map((d) => d.name));
      const shares = (await deps.shares.datasets()).flatMap((share) => (share.dataset ? [share.dataset] : []));
      return parentRefusal(parent, datasets, shares);
    },
    lookup: options.lookup,
    forcedCommand: receiveCommandLine,
    boxName: hostname(),
    changed: (pairings) => deps.topics.publish(topicName.storageReplication, 'changed', pairings),
  });
  const adminTopic: TopicProvider = {
    pattern: topics.storageReplication.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return service.list();
    },
    mayRead: async (principal) => principal.admin,
  };
  return defineArea({ name: 'replication', pairings: service, topics: [adminTopic], routes: [tableRoutes(api.replication, replicationHandlers(service))] });
}

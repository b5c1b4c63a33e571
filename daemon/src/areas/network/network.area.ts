import { existsSync } from 'node:fs';
import path from 'node:path';
import { api } from '../../../../shared/src/api/index.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Mode } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { NetworkHost } from '../../host/network/network-host.ts';
import { networkBackupPart } from './network.backup.ts';
import { networkHandlers } from './network.routes.ts';
import { NetworkService } from './network.service.ts';
import { networkTopic } from './network.topics.ts';

/** Seams of the network host effects for root system tests. */
export interface NetworkAreaOptions {
  /** Writes networkd, resolver and host name files under this folder and runs `ip` for real, even in development mode. */
  root?: string;
  /** Runs every `ip` in this network namespace (made by the test). */
  namespace?: string;
}

export interface NetworkAreaDeps {
  mode: Mode;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  topics: TopicPublisher & { listenerCount(topic: string): number };
  options?: NetworkAreaOptions;
}

// While someone watches the topic, link and address changes made outside the daemon (a cable, a DHCP lease) are found by this poll.
const watchIntervalMs = 2000;

/** System, Network: the five operations, the topic, the backup part, and a change awaiting confirmation recovered before the daemon serves. */
export async function createNetworkArea(deps: NetworkAreaDeps) {
  const { mode, logger, options = {} } = deps;
  const box = mode === 'box';
  const apply = box || options.root !== undefined;
  const host = new NetworkHost({
    root: options.root ?? '/',
    apply,
    namespace: options.namespace ?? null,
    setHostName: box,
    systemd: box && existsSync('/run/systemd/system'),
    runner: new CommandRunner(logger, apply),
    logger,
  });
  let last = '';
  const changed = () => void publish().catch((err: unknown) => logger.warn('network state not sent', { component: 'network', err }));
  const publish = async () => {
    if (deps.topics.listenerCount(topicName.systemNetwork) === 0) return;
    const state = await service.state(null);
    const text = JSON.stringify(state);
    if (text === last) return;
    last = text;
    deps.topics.publish(topicName.systemNetwork, 'changed', state);
  };
  const service: NetworkService = new NetworkService({
    host,
    stateDir: path.join(deps.dataDir, 'network'),
    clock: deps.clock,
    logger,
    changed,
  });
  await service.init();
  const poll = setInterval(changed, watchIntervalMs);
  poll.unref();
  return defineArea({
    name: 'network',
    topics: [networkTopic(service)],
    routes: [tableRoutes(api.systemNetwork, networkHandlers(service))],
    backupPart: networkBackupPart({ network: service }),
    service,
    close(): void {
      clearInterval(poll);
      service.close();
    },
  });
}

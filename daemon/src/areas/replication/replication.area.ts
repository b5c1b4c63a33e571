import type { Clock } from '../../core/clock.ts';
import { defineArea } from '../area.ts';
import { PairingOffers } from './pairing-offers.ts';

/**
 * Replication to a second box (issue 33, docs/replication.md). This first slice holds the
 * target's one-time pairing codes and the forced command a pairing's key runs
 * (receive-command.ts, started by sshd, not by the daemon); the pairing routes come next.
 */
export function createReplicationArea(deps: { clock: Clock }) {
  const offers = new PairingOffers(deps.clock);
  return defineArea({ name: 'replication', offers });
}

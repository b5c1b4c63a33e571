import { defineErrors } from './catalog-entry.ts';

/** Replication to a second box: pairing the boxes (issue 33, docs/replication.md). */
export const replicationErrors = defineErrors({
  'replication.parent.invalid': {
    status: 422,
    title: 'Received datasets cannot go below this dataset',
    params: ['parent', 'reason'],
    reasons: ['missing', 'pool-root', 'share', 'home', 'app'],
  },
  'replication.https.off': { status: 409, title: 'The box does not serve HTTPS: a pairing needs its root certificate' },
  'replication.ssh.unavailable': { status: 409, title: 'The box has no SSH host key: OpenSSH is not set up' },
  'replication.code.wrong': { status: 403, title: 'The pairing code is wrong or was used already' },
  'replication.code.expired': { status: 410, title: 'The pairing code has lapsed: make a new offer on the target' },
  'replication.code.attempts': { status: 429, title: 'Too many wrong pairing codes: make a new offer on the target' },
  'replication.key.invalid': { status: 400, title: 'The public key is no single ed25519 key line' },
  'replication.address.invalid': { status: 400, title: 'The address is no host name or IP address with an optional port', params: ['address'] },
  'replication.target.unreachable': { status: 422, title: 'The target box did not answer over HTTPS', params: ['address'] },
  'replication.target.fingerprint': {
    status: 422,
    title: "The target's root certificate has another fingerprint than the one entered",
    params: ['address', 'presented'],
  },
  'replication.target.refused': { status: 422, title: 'The target box refused the pairing', params: ['status'] },
  'replication.pairing.not_found': { status: 404, title: 'There is no such pairing', params: ['id'] },
});

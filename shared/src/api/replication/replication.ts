import Joi from 'joi';
import { isoTime } from '../common.ts';
import { defineRoute } from '../route.ts';
import { datasetName } from '../storage/snapshots.ts';

/** The target's answer to an administrator's offer: what the source's administrator types in. */
export interface PairingOffer {
  /** One-time code, 16 characters in groups of four; shown once. */
  code: string;
  expiresAt: string;
  /** The dataset the received datasets go below. */
  parent: string;
  /** SHA-256 fingerprint of the box's root certificate, as colon-separated upper-case hex. */
  rootFingerprint: string;
  /** The box's SSH host key (ed25519) as `SHA256:<base64>`, as ssh shows it. */
  sshHostKeyFingerprint: string;
}

export interface PairingOfferRequest {
  parent: string;
}

/** What the source sends to the target's accept operation, with the code as its only credential. */
export interface PairingAcceptRequest {
  code: string;
  /** The source's new public key, one OpenSSH line (`ssh-ed25519 <base64> [comment]`). */
  publicKey: string;
  /** The source box's name, shown in the target's pairing list. */
  label: string;
}

export interface PairingAcceptance {
  pairingId: string;
  /** The target's SSH host key line (`ssh-ed25519 <base64>`), pinned by the source. */
  hostKey: string;
  sshPort: number;
  sshUser: string;
  parent: string;
}

export interface PairRequest {
  /** The target's HTTPS address, `host[:port]` (default port 443), an IPv6 address in brackets. */
  address: string;
  code: string;
  /** The root fingerprint the owner reads off the target; colons and case do not matter. */
  rootFingerprint: string;
  /** The name this box shows for the target (default its address). */
  label?: string;
}

export type PairingRole = 'source' | 'target';

/** One pairing as either side keeps it; never a private key. */
export interface Pairing {
  id: string;
  /** `source`: this box sends to the peer; `target`: the peer sends to this box. */
  role: PairingRole;
  label: string;
  /** The target's HTTPS address on the source; the address the source called from on the target. */
  peerAddress: string;
  /** The dataset on the target below which received datasets go. */
  parent: string;
  /** The target's pinned root fingerprint (source side); null on the target. */
  rootFingerprint: string | null;
  /** The target's SSH host key fingerprint: pinned on the source, its own on the target. */
  sshHostKeyFingerprint: string;
  /** Fingerprint of the source's pairing key. */
  keyFingerprint: string;
  /** Where the source reaches the target's sshd; null on the target. */
  ssh: { host: string; port: number; user: string } | null;
  createdAt: string;
}

const fingerprint = () => Joi.string().pattern(/^[0-9A-Fa-f:]{64,95}$/);

export const pairingOffer = Joi.object<PairingOffer, true>({
  code: Joi.string().required(),
  expiresAt: isoTime().required(),
  parent: Joi.string().required(),
  rootFingerprint: Joi.string().required(),
  sshHostKeyFingerprint: Joi.string().required(),
}).id('PairingOffer');

export const pairingOfferRequest = Joi.object<PairingOfferRequest, true>({ parent: datasetName().required() }).id('PairingOfferRequest');

export const pairingAcceptRequest = Joi.object<PairingAcceptRequest, true>({
  code: Joi.string().max(64).required(),
  publicKey: Joi.string().max(1024).required(),
  label: Joi.string().trim().min(1).max(100).required(),
}).id('PairingAcceptRequest');

export const pairingAcceptance = Joi.object<PairingAcceptance, true>({
  pairingId: Joi.string().required(),
  hostKey: Joi.string().required(),
  sshPort: Joi.number().integer().min(1).max(65535).required(),
  sshUser: Joi.string().required(),
  parent: Joi.string().required(),
}).id('PairingAcceptance');

export const pairRequest = Joi.object<PairRequest, true>({
  address: Joi.string().max(300).required(),
  code: Joi.string().max(64).required(),
  rootFingerprint: fingerprint().required(),
  label: Joi.string().trim().min(1).max(100),
}).id('PairRequest');

export const pairing = Joi.object<Pairing, true>({
  id: Joi.string().required(),
  role: Joi.string().valid('source', 'target').required(),
  label: Joi.string().required(),
  peerAddress: Joi.string().required(),
  parent: Joi.string().required(),
  rootFingerprint: Joi.string().allow(null).required(),
  sshHostKeyFingerprint: Joi.string().required(),
  keyFingerprint: Joi.string().required(),
  ssh: Joi.object({ host: Joi.string().required(), port: Joi.number().integer().required(), user: Joi.string().required() }).allow(null).required(),
  createdAt: isoTime().required(),
}).id('Pairing');

const pairingParams = Joi.object<{ id: string }, true>({ id: Joi.string().uuid().required() });

/** Pairing two boxes for replication (issue 33, docs/replication.md). */
export const replicationRoutes = {
  createOffer: defineRoute({
    id: 'replication.createOffer',
    method: 'POST',
    path: '/api/storage/replication/pairing-offers',
    access: 'admin',
    summary: 'Make a one-time pairing offer on the target',
    description:
      'The received datasets of the pairing go below `parent`, a dataset of a pool below its top (never a share’s, a home’s or an app’s own). The code works once and lapses after 15 minutes; after 5 wrong codes every open offer is void.',
    body: pairingOfferRequest,
    status: 201,
    response: pairingOffer,
    errors: ['replication.parent.invalid', 'replication.https.off', 'replication.ssh.unavailable', 'host.tool.missing'],
  }),
  accept: defineRoute({
    id: 'replication.accept',
    method: 'POST',
    path: '/api/storage/replication/pairing-offers/accept',
    access: 'public',
    csrfExempt: true,
    summary: 'Redeem a pairing code (called by the source box)',
    description:
      'The code is the only credential. The target authorises the public key for its forced receive command below the offer’s parent and answers its SSH host key.',
    body: pairingAcceptRequest,
    status: 201,
    response: pairingAcceptance,
    errors: ['replication.code.wrong', 'replication.code.expired', 'replication.code.attempts', 'replication.key.invalid', 'replication.ssh.unavailable'],
  }),
  pair: defineRoute({
    id: 'replication.pair',
    method: 'POST',
    path: '/api/storage/replication/pairings',
    access: 'admin',
    summary: 'Pair this box as a source with a target box',
    description:
      'Makes an ed25519 key for the pairing, calls the target over HTTPS trusting only the root with the given fingerprint, and pins the SSH host key it answers.',
    body: pairRequest,
    status: 201,
    response: pairing,
    errors: [
      'replication.address.invalid',
      'replication.target.unreachable',
      'replication.target.fingerprint',
      'replication.target.refused',
      'replication.code.wrong',
      'replication.code.expired',
      'replication.code.attempts',
    ],
  }),
  pairings: defineRoute({
    id: 'replication.pairings',
    method: 'GET',
    path: '/api/storage/replication/pairings',
    access: 'admin',
    summary: 'List the pairings of this box, as source and as target',
    status: 200,
    response: Joi.array().items(pairing).id('PairingList'),
    errors: [],
  }),
  unpair: defineRoute({
    id: 'replication.unpair',
    method: 'DELETE',
    path: '/api/storage/replication/pairings/{id}',
    access: 'admin',
    summary: 'End a pairing',
    description: 'On the target the key’s authorized_keys line goes; on the source the key pair and the pinned host key go.',
    params: pairingParams,
    status: 204,
    errors: ['replication.pairing.not_found'],
  }),
};

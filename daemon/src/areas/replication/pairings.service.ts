import type { LookupFunction } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Pairing, PairingAcceptance, PairingAcceptRequest, PairingOffer, PairRequest } from '../../../../shared/src/api/replication/replication.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AuthorizedKey, ReplicaAccount } from '../../host/replica-ssh/replica-account.ts';
import { keyLine, parseEd25519Line, sshFingerprint, type PairingKeys, type PublicKeyLine } from '../../host/replica-ssh/ssh-keys.ts';
import type { PairingOffers } from './pairing-offers.ts';
import type { PairingRow } from './pairings.model.ts';
import type { ParentRefusal } from './parent-check.ts';
import { normalFingerprint, PinnedTarget } from './pinned-target.ts';
import { formatTargetAddress, parseTargetAddress } from './target-address.ts';

export interface PairingsDeps {
  rows: typeof PairingRow;
  offers: PairingOffers;
  clock: Clock;
  logger: Logger;
  /** The source's key pairs and pinned host keys, below the data directory. */
  keys: PairingKeys;
  /** The target's account and its authorized_keys. */
  account: ReplicaAccount;
  /** The box's own SSH host key (ed25519), or null when sshd has none. */
  hostKey(): Promise<PublicKeyLine | null>;
  sshPort: number;
  /** The box's root fingerprint, or null while it has no authority (no HTTPS). */
  rootFingerprint(): string | null;
  parentRefusal(parent: string): Promise<ParentRefusal | null>;
  /** Resolves a target's typed name; the system's resolver when left out. */
  lookup?: LookupFunction;
  /** The words of the forced command of a pairing's key. */
  forcedCommand(pairingId: string, parent: string): string[];
  /** This box's name, sent to the target as the pairing's label there. */
  boxName: string;
  changed(pairings: Pairing[]): void;
}

const codeRefusals = { 'wrong-code': 'replication.code.wrong', expired: 'replication.code.expired', 'too-many-attempts': 'replication.code.attempts' } as const;

/**
 * Pairings of this box with others (issue 33, docs/replication.md): offers and accepted keys on the
 * target, key pairs and pinned target identities on the source. authorized_keys is written whole
 * from the target's rows after every change, one change at a time.
 */
export class PairingsService {
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PairingsDeps) {}

  async list(): Promise<Pairing[]> {
    return (await this.deps.rows.findAll({ order: [['createdAt', 'ASC']] })).map(pairingOf);
  }

  /** Target: a one-time offer for received datasets below `parent`. */
  async createOffer(parent: string): Promise<PairingOffer> {
    const rootFingerprint = this.deps.rootFingerprint();
    if (!rootFingerprint) throw new ProblemError('replication.https.off');
    const hostKey = await this.requireHostKey();
    const reason = await this.deps.parentRefusal(parent);
    if (reason) throw new ProblemError('replication.parent.invalid', { parent, reason });
    const { offer, code } = this.deps.offers.create(parent);
    this.deps.logger.info('replication pairing offered', { logCode: 'replication.offered', component: 'replication', parent });
    return { code, expiresAt: new Date(offer.expiresAt).toISOString(), parent, rootFingerprint, sshHostKeyFingerprint: sshFingerprint(hostKey) };
  }

  /** Target: the source redeems a code with its public key; the key may then run only the forced command. */
  async accept(request: PairingAcceptRequest, from: string): Promise<PairingAcceptance> {
    // Checked before the code is used, so a malformed key costs the source no attempt and no offer.
    const key = parseEd25519Line(request.publicKey);
    if (!key) throw new ProblemError('replication.key.invalid');
    const hostKey = await this.requireHostKey();
    const redeemed = this.deps.offers.redeem(request.code);
    if ('refused' in redeemed) {
      this.deps.logger.warn('replication pairing code refused', {
        logCode: 'replication.codeRefused',
        component: 'replication',
        from,
        reason: redeemed.refused,
      });
      throw new ProblemError(codeRefusals[redeemed.refused]);
    }
    const { parent } = redeemed.offer;
    const row = await this.deps.rows.create({
      id: randomUUID(),
      role: 'target',
      label: request.label,
      peerAddress: from,
      parentDataset: parent,
      rootFingerprint: null,
      hostKey: keyLine(hostKey),
      publicKey: keyLine(key),
      createdAt: new Date(this.deps.clock.now()).toISOString(),
    });
    try {
      await this.writeAuthorizedKeys();
    } catch (err) {
      await row.destroy();
      throw err;
    }
    this.deps.logger.info('replication pairing accepted', { logCode: 'replication.accepted', component: 'replication', pairingId: row.id, from, parent });
    await this.publish();
    return { pairingId: row.id, hostKey: keyLine(hostKey), sshPort: this.deps.sshPort, sshUser: this.deps.account.options.name, parent };
  }

  /** Source: pairs with the target at `address`, trusting only the root the owner read off its screen. */
  async pair(request: PairRequest): Promise<Pairing> {
    const target = parseTargetAddress(request.address);
    if (!target) throw new ProblemError('replication.address.invalid', { address: request.address });
    const pinned = new PinnedTarget(target, this.deps.lookup);
    const rootPem = await pinned.root(request.rootFingerprint);
    const id = randomUUID();
    const { keys } = this.deps;
    try {
      const key = await keys.make(id);
      const answer = await pinned.accept(rootPem, { code: request.code, publicKey: keyLine(key), label: this.deps.boxName });
      const hostKey = parseEd25519Line(answer.hostKey);
      if (!hostKey) throw new ProblemError('replication.target.refused', { status: 201 });
      await keys.pin(id, target.host, answer.sshPort, hostKey);
      const address = formatTargetAddress(target);
      const row = await this.deps.rows.create({
        id,
        role: 'source',
        label: request.label ?? address,
        peerAddress: address,
        parentDataset: answer.parent,
        rootFingerprint: normalFingerprint(request.rootFingerprint),
        hostKey: keyLine(hostKey),
        publicKey: keyLine(key),
        sshHost: target.host,
        sshPort: answer.sshPort,
        sshUser: answer.sshUser,
        ...keys.files(id),
        createdAt: new Date(this.deps.clock.now()).toISOString(),
      });
      this.deps.logger.info('replication paired with a target', { logCode: 'replication.paired', component: 'replication', pairingId: id, address });
      await this.publish();
      return pairingOf(row);
    } catch (err) {
      await keys.remove(id);
      throw err;
    }
  }

  /** Either side: the pairing ends; its authorized key (target) or its key files (source) go with it. */
  async unpair(id: string): Promise<void> {
    const row = await this.deps.rows.findByPk(id);
    if (!row) throw new ProblemError('replication.pairing.not_found', { id });
    await row.destroy();
    if (row.role === 'target') await this.writeAuthorizedKeys();
    else await this.deps.keys.remove(id);
    this.deps.logger.info('replication pairing ended', { logCode: 'replication.unpaired', component: 'replication', pairingId: id, role: row.role });
    await this.publish();
  }

  private async requireHostKey(): Promise<PublicKeyLine> {
    const hostKey = await this.deps.hostKey();
    if (!hostKey) throw new ProblemError('replication.ssh.unavailable');
    return hostKey;
  }

  private writeAuthorizedKeys(): Promise<void> {
    const next = this.writing.then(async () => {
      const rows = await this.deps.rows.findAll({ where: { role: 'target' }, order: [['createdAt', 'ASC']] });
      const entries: AuthorizedKey[] = rows.map((row) => ({
        command: this.deps.forcedCommand(row.id, row.parentDataset),
        key: row.publicKey,
        comment: `cellar-pairing-${row.id}`,
      }));
      await this.deps.account.writeAuthorizedKeys(entries);
    });
    // A failed write answers its own request; the next one writes from the rows again.
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async publish(): Promise<void> {
    this.deps.changed(await this.list());
  }
}

function pairingOf(row: PairingRow): Pairing {
  const fingerprint = (line: string) => {
    const key = parseEd25519Line(line);
    return key ? sshFingerprint(key) : '';
  };
  return {
    id: row.id,
    role: row.role,
    label: row.label,
    peerAddress: row.peerAddress,
    parent: row.parentDataset,
    rootFingerprint: row.rootFingerprint,
    sshHostKeyFingerprint: fingerprint(row.hostKey),
    keyFingerprint: fingerprint(row.publicKey),
    ssh: row.role === 'source' && row.sshHost && row.sshPort && row.sshUser ? { host: row.sshHost, port: row.sshPort, user: row.sshUser } : null,
    createdAt: row.createdAt,
  };
}

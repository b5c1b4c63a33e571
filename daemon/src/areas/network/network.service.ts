import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { NetworkCheck, NetworkConfig, NetworkLink, NetworkState, PendingNetworkChange } from '../../../../shared/src/api/network/network.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { LiveState, NetworkHost } from '../../host/network/network-host.ts';
import { addressesToOpen, changedInterfaces, checkRules, configFromLive } from './network-rules.ts';
import { OneAtATime } from '../../core/one-at-a-time.ts';

/** Spec 8: a change not confirmed within this time is rolled back. */
export const confirmWindowMs = 60_000;

/** A change awaiting confirmation, as kept in `pending.json`: it survives a daemon restart. */
interface PendingRecord {
  changeId: string;
  createdAt: number;
  deadline: number;
  config: NetworkConfig;
  /** The configuration before the change (what stays if it rolls back); absent in a record of an earlier version. */
  previous?: NetworkConfig;
  addresses: string[];
  urls: string[];
  userId: number;
  /** SHA-256 of the follow token: the token itself is never stored or logged. */
  followHash: string;
  followUsed: boolean;
}

/** Where the request that applies a change came in: its answer's addresses use the same scheme and port. */
export interface Connection {
  localAddress: string | null;
  scheme: string;
  port: number;
}

export interface NetworkServiceDeps {
  host: NetworkHost;
  /** The area's folder under the data directory: kept configuration, pending change, snapshots. */
  stateDir: string;
  clock: Clock;
  logger: Logger;
  /** The state changed (a change applied, kept or rolled back): the topic sends it. */
  changed(): void;
}

/** What the host already decided about the pending change, or null while it awaits confirmation. */
type Settled = 'kept' | 'rolledBack' | null;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const bare = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

/** Network changes with confirm or rollback (spec 2, 3, 4.14). */
export class NetworkService {
  private timer: NodeJS.Timeout | null = null;
  /** Apply, confirm, revert and the deadline one after another: each reads and writes pending.json. */
  private readonly serial = new OneAtATime();

  constructor(private readonly deps: NetworkServiceDeps) {
    mkdirSync(path.join(deps.stateDir, 'changes'), { recursive: true, mode: 0o700 });
  }

  private file(name: string): string {
    return path.join(this.deps.stateDir, name);
  }

  private snap(changeId: string): string {
    return path.join(this.deps.stateDir, 'changes', changeId);
  }

  /** Written beside, then renamed: a crash or a full disk leaves the old file or the new one, never half of one (which every later read would fail on). */
  private save(name: string, value: unknown): void {
    const file = this.file(name);
    const temp = `${file}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(value, null, 2), { mode: 0o600 });
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    renameSync(temp, file);
  }

  private pendingRecord(): PendingRecord | null {
    const file = this.file('pending.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PendingRecord) : null;
  }

  private kept(): NetworkConfig | null {
    const file = this.file('configured.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as NetworkConfig) : null;
  }

  /** Before the daemon serves: a change whose deadline passed while it was down is rolled back now. */
  async init(): Promise<void> {
    await this.settleReadable();
    const pending = this.pendingRecord();
    if (pending && !this.deps.host.kept(this.snap(pending.changeId))) this.schedule(pending);
  }

  /**
   * Settles what the host already decided: a change the daemon kept (its record failed before) is
   * recorded as confirmed; one past its deadline, or rolled back by the outside timer, as rolled back.
   */
  private async settleExpired(): Promise<Settled> {
    const pending = this.pendingRecord();
    if (!pending) return null;
    const snap = this.snap(pending.changeId);
    if (this.deps.host.kept(snap)) {
      this.recordKept(pending);
      return 'kept';
    }
    if (this.deps.host.rolledBack(snap)) {
      this.finish(pending, 'rolled back by the outside timer');
      return 'rolledBack';
    }
    // A rollback claimed the change and stopped midway: the change is neither kept nor back, until it is finished.
    const step = this.deps.host.unfinishedRollback(snap);
    if (step !== null) {
      await this.deps.host.rollback(snap);
      this.finish(pending, `rolled back: an interrupted rollback (stopped at ${step}) was finished`);
      return 'rolledBack';
    }
    if (this.deps.clock.now() < pending.deadline) return null;
    await this.deps.host.rollback(snap);
    this.finish(pending, 'rolled back: not confirmed in time');
    return 'rolledBack';
  }

  /** For reads and the start: a kept change whose record still fails stays pending on disk, and the state shows it as kept. */
  private async settleReadable(): Promise<void> {
    await this.settleExpired().catch((err: unknown) => {
      if (!(err instanceof ProblemError && err.code === 'network.change.unrecorded')) throw err;
    });
  }

  /** The change is kept on the host: its record must say so, or the failure is answered (and retried at the next settle). */
  private recordKept(pending: PendingRecord): void {
    try {
      this.finish(pending, 'confirmed', true);
    } catch (err) {
      this.deps.logger.error('network change kept on the host, its record failed', { component: 'network', changeId: pending.changeId, err });
      throw new ProblemError('network.change.unrecorded', { changeId: pending.changeId }, { cause: err });
    }
  }

  private finish(pending: PendingRecord, outcome: string, keep = false): void {
    if (keep) this.save('configured.json', pending.config);
    rmSync(this.file('pending.json'), { force: true });
    rmSync(this.snap(pending.changeId), { recursive: true, force: true });
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.deps.logger.info(`network change ${outcome}`, { component: 'network', changeId: pending.changeId });
    this.deps.changed();
  }

  private schedule(pending: PendingRecord): void {
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, pending.deadline - this.deps.clock.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.serial.run(() => this.settleReadable()).catch((err: unknown) => this.deps.logger.error('network rollback failed', { component: 'network', err }));
    }, wait);
    this.timer.unref();
  }

  private answer(pending: PendingRecord, followToken: string | null = null): PendingNetworkChange {
    return {
      changeId: pending.changeId,
      createdAt: new Date(pending.createdAt).toISOString(),
      deadline: new Date(pending.deadline).toISOString(),
      addresses: pending.addresses,
      urls: pending.urls,
      followToken,
    };
  }

  private configured(live: LiveState): NetworkConfig {
    return this.pendingRecord()?.config ?? this.kept() ?? configFromLive(live.links, live.hostName, live.nameServers);
  }

  private connectionInterface(live: LiveState, localAddress: string | null): string | null {
    if (!localAddress) return null;
    const ip = bare(localAddress);
    return live.links.find((l) => l.addresses.some((a) => a.address.split('/')[0] === ip))?.name ?? null;
  }

  async state(localAddress: string | null): Promise<NetworkState> {
    // In the queue like the changes: reads at once must not each finish the same rollback.
    await this.serial.run(() => this.settleReadable());
    const live = await this.deps.host.read();
    const record = this.pendingRecord();
    const pending = record && !this.deps.host.kept(this.snap(record.changeId)) ? record : null;
    return {
      links: live.links,
      hostName: live.hostName,
      nameServers: live.nameServers,
      configured: this.configured(live),
      connectionInterface: this.connectionInterface(live, localAddress),
      pending: pending && this.answer(pending),
    };
  }

  private plan(raw: NetworkConfig, live: LiveState, localAddress: string | null) {
    const config = checkRules(raw, live.links);
    const changed = changedInterfaces(this.configured(live), config);
    const connection = this.connectionInterface(live, localAddress);
    return { config, changed, connection };
  }

  async check(raw: NetworkConfig, localAddress: string | null): Promise<NetworkCheck> {
    const live = await this.deps.host.read();
    const { config, changed, connection } = this.plan(raw, live, localAddress);
    return {
      config,
      changedInterfaces: [...changed].sort(),
      hostNameChanges: config.hostName !== live.hostName,
      connectionInterfaceChanges: connection !== null && changed.has(connection),
      addresses: addressesToOpen(config, changed),
    };
  }

  /** One change at a time: between the check for a pending change and its record the host is read, and a second request must not pass too. */
  apply(raw: NetworkConfig, connection: Connection, userId: number): Promise<PendingNetworkChange> {
    return this.serial.run(() => this.applyNow(raw, connection, userId, true));
  }

  /**
   * A restored configuration as a change awaiting confirmation, as if applied by hand. It gives no
   * follow token: a restore may give the caller's user id to another user.
   */
  stage(raw: NetworkConfig, connection: Connection, userId: number): Promise<PendingNetworkChange> {
    return this.serial.run(() => this.applyNow(raw, connection, userId, false));
  }

  /** The configuration the box keeps: during a change awaiting confirmation the one before it, never the unconfirmed one. */
  confirmed(): Promise<NetworkConfig> {
    return this.serial.run(async () => {
      await this.settleReadable();
      const record = this.pendingRecord();
      // Kept on the host, only its record late: that one is confirmed.
      if (record && this.deps.host.kept(this.snap(record.changeId))) return record.config;
      if (record?.previous) return record.previous;
      const live = await this.deps.host.read();
      return this.kept() ?? configFromLive(live.links, live.hostName, live.nameServers);
    });
  }

  /** The id of the change awaiting confirmation, or null. */
  pendingChange(): Promise<string | null> {
    return this.serial.run(async () => {
      await this.settleReadable();
      const record = this.pendingRecord();
      // As the state shows it: a change kept on the host whose record is late no longer awaits confirmation.
      return record && !this.deps.host.kept(this.snap(record.changeId)) ? record.changeId : null;
    });
  }

  /** The box's links now, as the rules read them. */
  async links(): Promise<NetworkLink[]> {
    return (await this.deps.host.read()).links;
  }

  private async applyNow(raw: NetworkConfig, connection: Connection, userId: number, follow: boolean): Promise<PendingNetworkChange> {
    await this.settleExpired();
    const current = this.pendingRecord();
    if (current) throw new ProblemError('network.change.pending', { changeId: current.changeId });
    const live = await this.deps.host.read();
    const { config, changed } = this.plan(raw, live, connection.localAddress);
    const now = this.deps.clock.now();
    const addresses = addressesToOpen(config, changed);
    const followToken = randomBytes(32).toString('base64url');
    const pending: PendingRecord = {
      changeId: randomUUID(),
      createdAt: now,
      deadline: now + confirmWindowMs,
      config,
      previous: this.configured(live),
      addresses,
      urls: addresses.map((a) => `${connection.scheme}://${a.includes(':') ? `[${a}]` : a}:${connection.port}/`),
      userId,
      followHash: hash(followToken),
      followUsed: false,
    };
    // Recorded first: a daemon that dies during the apply still finds the change and its deadline.
    this.save('pending.json', pending);
    const snap = this.snap(pending.changeId);
    try {
      await this.deps.host.apply(snap, { config, before: live, changed }, confirmWindowMs / 1000);
    } catch (err) {
      await this.deps.host.rollback(snap).catch(() => undefined);
      this.finish(pending, 'failed and was rolled back');
      throw err;
    }
    this.schedule(pending);
    this.deps.logger.info('network change applied, awaiting confirmation', {
      logCode: 'network.changeApplied',
      component: 'network',
      changeId: pending.changeId,
      changed: [...changed],
      userId,
    });
    this.deps.changed();
    return this.answer(pending, follow ? followToken : null);
  }

  private awaiting(changeId: string): PendingRecord {
    const pending = this.pendingRecord();
    if (!pending || pending.changeId !== changeId) throw new ProblemError('network.change.not_found', { changeId });
    return pending;
  }

  confirm(changeId: string): Promise<void> {
    return this.serial.run(() => this.confirmNow(changeId));
  }

  private async confirmNow(changeId: string): Promise<void> {
    const pending = this.awaiting(changeId);
    const settled = await this.settleExpired();
    // Kept already, only its record was late: the confirmation stands.
    if (settled === 'kept') return;
    if (settled === 'rolledBack') throw new ProblemError('network.change.expired', { changeId });
    const snap = this.snap(changeId);
    let claimed: boolean;
    try {
      // The outside timer may be running the rollback this very moment: whoever claims first acts.
      claimed = this.deps.host.claimToKeep(snap);
    } catch (err) {
      this.deps.logger.error('network change not confirmed: its mark could not be written', { component: 'network', changeId, err });
      throw new ProblemError('network.change.unsaved', { changeId }, { cause: err });
    }
    if (!claimed) {
      // The timer claimed it a moment ago and may still be rolling back: done before the snapshot goes.
      await this.deps.host.rollback(snap);
      this.finish(pending, 'rolled back by the outside timer');
      throw new ProblemError('network.change.expired', { changeId });
    }
    await this.deps.host.keep(snap);
    this.recordKept(pending);
  }

  revert(changeId: string): Promise<void> {
    return this.serial.run(() => this.revertNow(changeId));
  }

  private async revertNow(changeId: string): Promise<void> {
    const pending = this.awaiting(changeId);
    const settled = await this.settleExpired();
    if (settled === 'kept') throw new ProblemError('network.change.not_found', { changeId });
    if (settled === 'rolledBack') return;
    await this.deps.host.rollback(this.snap(changeId));
    this.finish(pending, 'reverted');
  }

  /** The administrator who applied the pending change, for a session at the new address; the token works once. */
  follow(token: string): number {
    const pending = this.pendingRecord();
    const given = Buffer.from(hash(token), 'hex');
    if (!pending || pending.followUsed || this.deps.clock.now() >= pending.deadline || !timingSafeEqual(given, Buffer.from(pending.followHash, 'hex'))) {
      throw new ProblemError('network.follow.invalid');
    }
    this.save('pending.json', { ...pending, followUsed: true });
    return pending.userId;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

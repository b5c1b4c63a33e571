import { EventEmitter } from 'node:events';
import { Op } from 'sequelize';
import session, { type SessionData } from 'express-session';
import type { SessionRow } from './session.model.ts';

/** Sessions end 24 hours after the sign-in at the latest. */
export const absoluteSessionMs = 24 * 60 * 60 * 1000;

/**
 * express-session store in the daemon's SQLite database, so sessions survive a restart.
 * It keeps the user id in a column so that every session of a user can be ended at once;
 * `ended` tells the topics hub to close that session's sockets. Reads come from a write-through
 * cache (this process is the only writer), and a touch writes only once the expiry has moved by
 * more than `touchSlackMs`, so a signed-in request costs no database write.
 */
export class SqliteSessionStore extends session.Store {
  readonly ended = new EventEmitter<{ ended: [sid: string] }>();
  private readonly cache = new Map<string, { data: string; expiresAt: number; stored: number }>();
  private readonly touchSlackMs = 60_000;
  private readonly cacheLimit = 10_000;

  constructor(
    private readonly rows: typeof SessionRow,
    private readonly idleMs: number,
    /** Absolute lifetime from the sign-in, however active the session is. */
    private readonly absoluteMs: number = absoluteSessionMs,
  ) {
    super();
  }

  private expiry(sess: SessionData): number {
    const cookieExpiry = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : NaN;
    const idle = Number.isFinite(cookieExpiry) ? cookieExpiry : Date.now() + this.idleMs;
    return sess.signedInAt ? Math.min(idle, sess.signedInAt + this.absoluteMs) : idle;
  }

  /** The session's data while it lives: neither idle past its expiry nor older than the absolute lifetime. */
  private alive(found: { data: string; expiresAt: number } | null): SessionData | null {
    if (!found || found.expiresAt <= Date.now()) return null;
    const data = JSON.parse(found.data) as SessionData;
    if (data.signedInAt && data.signedInAt + this.absoluteMs <= Date.now()) return null;
    return data;
  }

  private remember(sid: string, data: string, expiresAt: number, stored: number): void {
    if (this.cache.size >= this.cacheLimit) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(sid, { data, expiresAt, stored });
  }

  private async lookup(sid: string): Promise<{ data: string; expiresAt: number } | null> {
    const cached = this.cache.get(sid);
    if (cached) return cached;
    const row = await this.rows.findByPk(sid);
    if (!row) return null;
    this.remember(sid, row.data, row.expiresAt, row.expiresAt);
    return row;
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.lookup(sid)
      .then((found) => callback(null, this.alive(found)))
      .catch(callback);
  }

  override set(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    const data = JSON.stringify(sess);
    const expiresAt = this.expiry(sess);
    this.rows
      .upsert({ sid, userId: sess.userId ?? null, data, expiresAt })
      .then(() => {
        this.remember(sid, data, expiresAt, expiresAt);
        callback?.();
      })
      .catch((err) => callback?.(err));
  }

  override touch(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    const expiresAt = this.expiry(sess);
    const cached = this.cache.get(sid);
    if (cached && expiresAt - cached.stored < this.touchSlackMs) {
      cached.expiresAt = expiresAt;
      callback?.();
      return;
    }
    this.rows
      .update({ expiresAt }, { where: { sid } })
      .then(() => {
        if (cached) Object.assign(cached, { expiresAt, stored: expiresAt });
        callback?.();
      })
      .catch((err) => callback?.(err));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.cache.delete(sid);
    this.rows
      .destroy({ where: { sid } })
      .then(() => {
        this.ended.emit('ended', sid);
        callback?.();
      })
      .catch((err) => callback?.(err));
  }

  /** Ends every session of a user (deactivation, password reset); answers how many. */
  async endUserSessions(userId: number, exceptSid?: string): Promise<number> {
    const rows = await this.rows.findAll({ where: { userId, ...(exceptSid ? { sid: { [Op.ne]: exceptSid } } : {}) }, attributes: ['sid'] });
    for (const row of rows) this.cache.delete(row.sid);
    await this.rows.destroy({ where: { sid: rows.map((r) => r.sid) } });
    for (const row of rows) this.ended.emit('ended', row.sid);
    return rows.length;
  }

  /** Ends every session of every user (a restore of the users); answers how many. */
  async endAll(): Promise<number> {
    const rows = await this.rows.findAll({ attributes: ['sid'] });
    this.cache.clear();
    await this.rows.destroy({ where: {} });
    for (const row of rows) this.ended.emit('ended', row.sid);
    return rows.length;
  }

  /** Whether a session is still alive (the socket handshake checks this). */
  async isAlive(sid: string): Promise<SessionData | null> {
    return this.alive(await this.lookup(sid));
  }

  /** The live signed-in sessions: whose, and since when (Overview's signed-in users). */
  async signedIn(): Promise<{ userId: number; signedInAt: number | null }[]> {
    const rows = await this.rows.findAll({
      where: { userId: { [Op.ne]: null }, expiresAt: { [Op.gt]: Date.now() } },
      attributes: ['userId', 'data', 'expiresAt'],
    });
    return rows.flatMap((row) => {
      const data = this.alive(row);
      return data && row.userId !== null ? [{ userId: row.userId, signedInAt: data.signedInAt ?? null }] : [];
    });
  }

  async purgeExpired(): Promise<number> {
    for (const [sid, entry] of this.cache) if (entry.expiresAt <= Date.now()) this.cache.delete(sid);
    return this.rows.destroy({ where: { expiresAt: { [Op.lte]: Date.now() } } });
  }
}

import { EventEmitter } from 'node:events';
import { Op } from 'sequelize';
import session, { type SessionData } from 'express-session';
import type { SessionRow } from './session.model.ts';

/**
 * express-session store in the daemon's SQLite database, so sessions survive a restart.
 * It keeps the user id in a column so that every session of a user can be ended at once;
 * `ended` tells the topics hub to close that session's sockets.
 */
export class SqliteSessionStore extends session.Store {
  readonly ended = new EventEmitter<{ ended: [sid: string] }>();

  constructor(
    private readonly rows: typeof SessionRow,
    private readonly idleMs: number,
  ) {
    super();
  }

  private expiry(sess: SessionData): number {
    const cookieExpiry = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : NaN;
    return Number.isFinite(cookieExpiry) ? cookieExpiry : Date.now() + this.idleMs;
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.rows
      .findByPk(sid)
      .then((row) => {
        if (!row || row.expiresAt <= Date.now()) return callback(null, null);
        callback(null, JSON.parse(row.data) as SessionData);
      })
      .catch(callback);
  }

  override set(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    this.rows
      .upsert({ sid, userId: sess.userId ?? null, data: JSON.stringify(sess), expiresAt: this.expiry(sess) })
      .then(() => callback?.())
      .catch((err) => callback?.(err));
  }

  override touch(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    this.rows
      .update({ expiresAt: this.expiry(sess) }, { where: { sid } })
      .then(() => callback?.())
      .catch((err) => callback?.(err));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
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
    await this.rows.destroy({ where: { sid: rows.map((r) => r.sid) } });
    for (const row of rows) this.ended.emit('ended', row.sid);
    return rows.length;
  }

  /** Whether a session is still alive (the socket handshake checks this). */
  async isAlive(sid: string): Promise<SessionData | null> {
    const row = await this.rows.findByPk(sid);
    if (!row || row.expiresAt <= Date.now()) return null;
    return JSON.parse(row.data) as SessionData;
  }

  async purgeExpired(): Promise<number> {
    return this.rows.destroy({ where: { expiresAt: { [Op.lte]: Date.now() } } });
  }
}

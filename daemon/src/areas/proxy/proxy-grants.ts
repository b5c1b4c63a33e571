import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';

export interface ProxyGrant {
  hostId: number;
  userId: number;
  /** The box session it came from: signing out there ends it. */
  sid: string;
}

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The cookies of sign-in-protected hosts, in the database so a restarted daemon keeps its
 * visitors in. Only a SHA-256 of each value is kept: the values are 256 random bits, so a copy of
 * the database opens nothing. A grant ends with its session, its host, or its expiry.
 */
export class ProxyGrants {
  constructor(
    private readonly db: Sequelize,
    private readonly now: () => number,
  ) {}

  async add(value: string, grant: ProxyGrant, expiresAt: number): Promise<void> {
    await this.db.query('INSERT INTO proxy_grants (token_hash, host_id, user_id, sid, expires_at) VALUES ($1, $2, $3, $4, $5)', {
      bind: [hashOf(value), grant.hostId, grant.userId, grant.sid, expiresAt],
    });
  }

  /** The grant a cookie value stands for while it has not expired. */
  async find(value: string): Promise<ProxyGrant | null> {
    const [row] = await this.db.query<{ host_id: number; user_id: number; sid: string }>(
      'SELECT host_id, user_id, sid FROM proxy_grants WHERE token_hash = $1 AND expires_at > $2',
      { bind: [hashOf(value), this.now()], type: QueryTypes.SELECT },
    );
    return row ? { hostId: row.host_id, userId: row.user_id, sid: row.sid } : null;
  }

  async remove(value: string): Promise<void> {
    await this.db.query('DELETE FROM proxy_grants WHERE token_hash = $1', { bind: [hashOf(value)] });
  }

  async removeHost(hostId: number): Promise<void> {
    await this.db.query('DELETE FROM proxy_grants WHERE host_id = $1', { bind: [hostId] });
  }

  async removeSession(sid: string): Promise<void> {
    await this.db.query('DELETE FROM proxy_grants WHERE sid = $1', { bind: [sid] });
  }

  async purgeExpired(): Promise<void> {
    await this.db.query('DELETE FROM proxy_grants WHERE expires_at <= $1', { bind: [this.now()] });
  }
}

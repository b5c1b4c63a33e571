import { createHash, randomBytes } from 'node:crypto';
import { proxyLimits, type ProxyTicket } from '../../../../shared/src/api/proxy/proxy.ts';
import type { Clock } from '../../core/clock.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { absoluteSessionMs } from '../identity/auth/session-store.ts';
import type { LoginThrottle } from '../identity/auth/throttle.ts';
import { verifyPassword } from '../identity/users/passwords.ts';
import type { ProxyGrant, ProxyGrants } from './proxy-grants.ts';
import type { StoredHost } from './proxy-records.ts';

/** The cookie a sign-in-protected host's visitors carry; host-only (no Domain), so it is valid for that host alone. */
export const proxyCookie = 'cellar_proxy';

type Host = StoredHost & { id: number };

export interface ProxyAccessDeps {
  clock: Clock;
  host(id: number): Promise<Host | null>;
  hosts(): Promise<Host[]>;
  sessionAlive(sid: string): Promise<boolean>;
  /** An active user's admin flag, null for an absent or deactivated one. */
  user(userId: number): Promise<{ admin: boolean } | null>;
  groupIdsOf(userId: number): Promise<number[]>;
  /** The sign-in's throttle: wrong Basic Auth passwords count per host and visitor address as wrong sign-ins do per name. */
  throttle: Pick<LoginThrottle, 'check' | 'failed' | 'succeeded'>;
  /** The hosts' cookies, kept across restarts. */
  grants: ProxyGrants;
  /** The ports nginx answers proxy hosts on: a ticket goes to one of them, whatever the link named. */
  ports(): { http: number; https: number };
}

const token = () => randomBytes(32).toString('base64url');

const signInNeeded = () => new ProblemError('proxy.ticket.invalid', undefined, { headers: { 'X-Cellar-Auth': 'signin' } });

function hostMatches(domain: string, name: string): boolean {
  return domain.startsWith('*.') ? name.endsWith(domain.slice(1)) && name.length > domain.length - 1 : domain === name;
}

/**
 * Where the browser goes after the ticket: a path on the host itself. Leading slashes and
 * backslashes become one `/`, so `//evil.example/` or `/\evil.example/` (which browsers read as
 * another host) stay on the host as `/evil.example/`.
 */
export function pathOnHost(path: string): string {
  return `/${path.replace(/^[/\\]+/, '')}`;
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

/**
 * Who passes a protected proxy host: nginx asks for each request (auth_request). Sign-in
 * hosts want their cookie, which a one-time ticket from the desktop turns into; Basic Auth
 * hosts want a user and password of theirs. Tickets (30 seconds) live in memory; cookies are kept
 * in the database (as hashes) for as long as their box session can live.
 */
export class ProxyAccess {
  private readonly tickets = new Map<string, ProxyGrant & { path: string; expiresAt: number }>();
  // scrypt for every request would cap the host's throughput: an accepted header is remembered until the host changes.
  private readonly acceptedBasic = new Set<string>();

  constructor(private readonly deps: ProxyAccessDeps) {}

  private async admits(host: Host, userId: number): Promise<boolean> {
    const user = await this.deps.user(userId);
    if (!user) return false;
    if (user.admin || host.signIn.userIds.includes(userId)) return true;
    const groups = await this.deps.groupIdsOf(userId);
    return groups.some((g) => host.signIn.groupIds.includes(g));
  }

  async ticket(user: Principal, url: string): Promise<ProxyTicket> {
    const asked = new URL(url);
    const name = asked.hostname.toLowerCase();
    const host = (await this.deps.hosts()).find((h) => h.enabled && h.signIn.enabled && h.domains.some((d) => hostMatches(d, name)));
    if (!host) throw new ProblemError('proxy.host.unknown', { url });
    if (!(await this.admits(host, user.id))) throw new ProblemError('proxy.access.denied');
    const now = this.deps.clock.now();
    for (const [key, t] of this.tickets) if (t.expiresAt <= now) this.tickets.delete(key);
    const value = token();
    const expiresAt = now + proxyLimits.ticketMs;
    this.tickets.set(value, { hostId: host.id, userId: user.id, sid: user.sessionId, path: pathOnHost(asked.pathname + asked.search), expiresAt });
    return { url: `${this.originOf(host, name)}/.cellar/ticket?ticket=${value}`, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * The host as nginx serves it: https on the proxy's HTTPS port when it has a certificate, else
   * http on its HTTP port. The link's own scheme and port are not used: the one-time ticket never
   * goes in clear to a host that has TLS, nor to a port that is not nginx's.
   */
  private originOf(host: Host, name: string): string {
    const { http, https } = this.deps.ports();
    const secure = host.tls.mode !== 'none' && host.tls.certificate !== null;
    const port = secure ? (https === 443 ? '' : `:${https}`) : http === 80 ? '' : `:${http}`;
    return `${secure ? 'https' : 'http'}://${name}${port}`;
  }

  /** The ticket, used once, becomes the host's cookie; the answer is the cookie and where the browser goes next. */
  async redeem(hostId: number, ticket: string, secure: boolean): Promise<{ cookie: string; location: string }> {
    const found = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    const host = await this.deps.host(hostId);
    if (!found || !host || found.hostId !== hostId || found.expiresAt <= this.deps.clock.now()) throw new ProblemError('proxy.ticket.invalid');
    if (!(await this.deps.sessionAlive(found.sid))) throw new ProblemError('proxy.ticket.invalid');
    if (!(await this.admits(host, found.userId))) throw new ProblemError('proxy.access.denied');
    const value = token();
    // No box session outlives this: the grant ends with its session at the latest.
    await this.deps.grants.add(value, { hostId, userId: found.userId, sid: found.sid }, this.deps.clock.now() + absoluteSessionMs);
    const cookie = `${proxyCookie}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
    return { cookie, location: pathOnHost(found.path) };
  }

  /** nginx's question for one request; throws the problem that says what is missing. */
  async authorize(hostId: number, cookieHeader: string | undefined, authorization: string | undefined, address: string): Promise<void> {
    const host = await this.deps.host(hostId);
    if (!host || !host.enabled) throw new ProblemError('proxy.host.not_found', { id: hostId });
    if (host.signIn.enabled) {
      const value = cookieValue(cookieHeader, proxyCookie);
      const grant = value ? await this.deps.grants.find(value) : null;
      if (!value || !grant || grant.hostId !== hostId) throw signInNeeded();
      if (!(await this.deps.sessionAlive(grant.sid))) {
        await this.deps.grants.remove(value);
        throw signInNeeded();
      }
      if (!(await this.admits(host, grant.userId))) throw new ProblemError('proxy.access.denied');
    }
    if (host.basicAuth.length > 0) await this.checkBasic(host, authorization, address);
  }

  private async checkBasic(host: Host, authorization: string | undefined, address: string): Promise<void> {
    const refused = new ProblemError('auth.credentials.invalid', undefined, { headers: { 'X-Cellar-Auth': 'basic' } });
    const match = /^Basic ([A-Za-z0-9+/=]{1,2000})$/.exec(authorization ?? '');
    if (!match?.[1]) throw refused;
    const key = `${host.id}:${createHash('sha256').update(match[1]).digest('hex')}`;
    // A header known to be right reveals nothing to a guesser: it passes even while its address is held.
    if (this.acceptedBasic.has(key)) return;
    // The host stands in for the user name (a name with a colon no box user has): the counts are per host and address, per host, per address.
    const client = { username: `proxy-host:${host.id}`, address, device: null };
    await this.deps.throttle.check(client).catch((err: unknown) => {
      if (!(err instanceof ProblemError) || err.code !== 'auth.login.throttled') throw err;
      throw new ProblemError('proxy.basic.throttled', err.params, { headers: { ...err.headers, 'X-Cellar-Auth': 'throttled' } });
    });
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon > 0 ? host.basicAuth.find((u) => u.username === decoded.slice(0, colon)) : undefined;
    if (!user || !(await verifyPassword(decoded.slice(colon + 1), user.hash))) {
      await this.deps.throttle.failed(client);
      throw refused;
    }
    await this.deps.throttle.succeeded(client);
    this.acceptedBasic.add(key);
  }

  /** A host changed: its remembered Basic Auth answers go. */
  hostChanged(hostId: number): void {
    for (const key of this.acceptedBasic) if (key.startsWith(`${hostId}:`)) this.acceptedBasic.delete(key);
  }

  /** A host went: its cookies go too (after its removal's transaction, which holds the database). */
  async hostRemoved(hostId: number): Promise<void> {
    this.hostChanged(hostId);
    await this.deps.grants.removeHost(hostId);
  }

  /** Signing out of the box ends the tickets and cookies that came from that session. */
  async sessionEnded(sid: string): Promise<void> {
    for (const [key, ticket] of this.tickets) if (ticket.sid === sid) this.tickets.delete(key);
    await this.deps.grants.removeSession(sid);
  }

  /** Forgets cookies past their expiry. */
  purgeExpired(): Promise<void> {
    return this.deps.grants.purgeExpired();
  }
}

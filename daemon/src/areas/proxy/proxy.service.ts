import { X509Certificate } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import type {
  ProxyHostRequest,
  ProxyOptionsRequest,
  ProxyRedirectRequest,
  ProxySettings,
  ProxyStreamRequest,
  ProxyTargetStatus,
} from '../../../../shared/src/api/proxy/proxy.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { renderNginxConfig } from '../../host/nginx/nginx-config.ts';
import type { NginxHost } from '../../host/nginx/nginx-host.ts';
import type { StreamFirewall } from '../../host/nftables/stream-firewall.ts';
import { hashPassword } from '../identity/users/passwords.ts';
import { checkCustomCertificate } from '../tls/custom-certificate.ts';
import type { ProxyAccess } from './proxy-access.ts';
import { checkTarget } from './proxy-check.ts';
import type { ProxyEntryKind, ProxyEntryRow } from './proxy.model.ts';
import { buildPlan, type PlanContext } from './proxy-plan.ts';
import { defaultOptions, hostView, redirectView, type ProxyState, type StoredCertificate, type StoredHost, type StoredRedirect } from './proxy-records.ts';

const dayMs = 24 * 60 * 60 * 1000;
/** Certificates from the authority are renewed this long before they end. */
const renewBeforeMs = 90 * dayMs;

export interface ProxyServiceDeps {
  db: Sequelize;
  rows: typeof ProxyEntryRow;
  nginx: NginxHost;
  firewall: StreamFirewall;
  access: ProxyAccess;
  clock: Clock;
  logger: Logger;
  /** Told the settings after every kept change (the `proxy` topic: another administrator's window follows). */
  changed(settings: ProxySettings): void;
  /** Where nginx listens and reaches the daemon; known once the daemon listens. */
  context(): Omit<PlanContext, 'boxCertificate'>;
  tls: {
    /** A certificate from the box's authority (tls.name.out_of_scope outside its scope). */
    issue(names: string[]): Promise<StoredCertificate>;
    boxCertificate(): Promise<StoredCertificate>;
    /** Whether a certificate comes from the authority as it is now (not one replaced since). */
    fromCurrentAuthority(certificatePem: string): boolean;
  };
}

type Row = { id: number; data: string };
const parse = <T>(row: Row): T & { id: number } => ({ ...(JSON.parse(row.data) as T), id: row.id });

/** The reverse proxy's rules: every change is validated by nginx before it is kept, and a refused one changes nothing. */
export class ProxyService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ProxyServiceDeps) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async state(transaction?: Transaction): Promise<ProxyState> {
    const rows = await this.deps.rows.findAll({ order: [['id', 'ASC']], transaction });
    const of = (kind: ProxyEntryKind) => rows.filter((r) => r.kind === kind);
    const options = of('options')[0];
    return {
      options: options ? (JSON.parse(options.data) as ProxyOptionsRequest) : defaultOptions,
      hosts: of('host').map((r) => parse<StoredHost>(r)),
      redirects: of('redirect').map((r) => parse<StoredRedirect>(r)),
      streams: of('stream').map((r) => parse<Omit<ProxyStreamRequest, 'enabled'> & { enabled: boolean }>(r)),
    };
  }

  async settings(): Promise<ProxySettings> {
    const state = await this.state();
    if (this.deps.nginx.state() !== 'running') await this.deps.nginx.probe();
    const nginx = this.deps.nginx.state();
    return {
      ...state.options,
      ports: this.deps.context().ports,
      nginx: { state: nginx, package: nginx === 'missing' ? 'nginx' : null },
      hosts: state.hosts.map(hostView),
      redirects: state.redirects.map(redirectView),
      streams: state.streams,
    };
  }

  /** Makes nginx and the firewall match the rows. */
  private async applyState(state: ProxyState): Promise<void> {
    const { plan, files } = buildPlan(state, { ...this.deps.context(), boxCertificate: await this.deps.tls.boxCertificate() });
    await this.deps.nginx.apply(renderNginxConfig(plan), files);
    await this.deps.firewall.apply(plan.streams);
  }

  /** Applies what the database holds (at start, after a restore). */
  apply(): Promise<void> {
    return this.serial(async () => this.applyState(await this.state()));
  }

  /** One change in a transaction: kept only when nginx and the firewall took the configuration made from it. */
  private change(fn: (t: Transaction, state: ProxyState) => Promise<void>): Promise<ProxySettings> {
    return this.serial(async () => {
      try {
        await this.deps.db.transaction(async (t) => {
          await fn(t, await this.state(t));
          await this.applyState(await this.state(t));
        });
      } catch (err) {
        // nginx may have taken it while the firewall did not: what is kept is applied again.
        if (!(err instanceof ProblemError)) await this.applyState(await this.state()).catch(() => undefined);
        throw err;
      }
      const settings = await this.settings();
      this.deps.changed(settings);
      return settings;
    });
  }

  private async write(kind: ProxyEntryKind, id: number | null, data: object, t: Transaction): Promise<number> {
    const now = new Date(this.deps.clock.now()).toISOString();
    if (id !== null) {
      await this.deps.rows.update({ data: JSON.stringify(data), updatedAt: now }, { where: { id, kind }, transaction: t });
      return id;
    }
    const row = await this.deps.rows.create({ kind, data: JSON.stringify(data), createdAt: now, updatedAt: now }, { transaction: t });
    return row.id;
  }

  private assertDomainsFree(state: ProxyState, domains: string[], self: { kind: 'host' | 'redirect'; id: number | null }): void {
    const others = [
      ...state.hosts.filter((h) => !(self.kind === 'host' && h.id === self.id)),
      ...state.redirects.filter((r) => !(self.kind === 'redirect' && r.id === self.id)),
    ];
    const taken = domains.find((d) => others.some((o) => o.domains.includes(d)));
    if (taken) throw new ProblemError('proxy.domain.taken', { domain: taken });
  }

  private async hostCertificate(request: ProxyHostRequest, old: StoredHost | undefined): Promise<StoredCertificate | null> {
    const { mode } = request.tls;
    if (mode === 'none') return null;
    if (mode === 'uploaded') {
      if (request.tls.certificate && request.tls.privateKey) {
        checkCustomCertificate(request.tls.certificate, request.tls.privateKey, this.deps.clock.now());
        return { chainPem: request.tls.certificate, privateKeyPem: request.tls.privateKey };
      }
      if (old?.tls.mode === 'uploaded' && old.tls.certificate) return old.tls.certificate;
      throw new ProblemError('proxy.certificate.missing');
    }
    const kept = old?.tls.mode === 'authority' && old.tls.certificate && sameNames(old.domains, request.domains) ? old.tls.certificate : null;
    return kept ?? this.deps.tls.issue(request.domains);
  }

  private async basicUsers(request: ProxyHostRequest, old: StoredHost | undefined): Promise<StoredHost['basicAuth']> {
    const users: StoredHost['basicAuth'] = [];
    for (const user of request.basicAuth ?? []) {
      const kept = old?.basicAuth.find((u) => u.username === user.username);
      if (user.password !== undefined) users.push({ username: user.username, hash: await hashPassword(user.password) });
      else if (kept) users.push(kept);
      else throw new ProblemError('proxy.user.password_missing', { username: user.username });
    }
    return users;
  }

  private saveHost(id: number | null, request: ProxyHostRequest): Promise<ProxySettings> {
    return this.change(async (t, state) => {
      const old = id === null ? undefined : state.hosts.find((h) => h.id === id);
      if (id !== null && !old) throw new ProblemError('proxy.host.not_found', { id });
      this.assertDomainsFree(state, request.domains, { kind: 'host', id });
      const host: StoredHost = {
        domains: request.domains,
        enabled: request.enabled ?? true,
        target: request.target,
        tls: { mode: request.tls.mode, certificate: await this.hostCertificate(request, old) },
        forceHttps: request.forceHttps ?? false,
        hsts: request.hsts ?? false,
        http2: request.http2 ?? false,
        websocket: request.websocket ?? false,
        basicAuth: await this.basicUsers(request, old),
        signIn: request.signIn ?? { enabled: false, userIds: [], groupIds: [] },
      };
      const saved = await this.write('host', id, host, t);
      this.deps.access.hostChanged(saved);
      this.deps.logger.info(id === null ? 'proxy host added' : 'proxy host changed', {
        logCode: id === null ? 'proxy.hostAdded' : 'proxy.hostChanged',
        component: 'proxy',
        id: saved,
        domains: host.domains,
      });
    });
  }

  createHost(request: ProxyHostRequest): Promise<ProxySettings> {
    return this.saveHost(null, request);
  }

  updateHost(id: number, request: ProxyHostRequest): Promise<ProxySettings> {
    return this.saveHost(id, request);
  }

  async removeHost(id: number): Promise<ProxySettings> {
    const settings = await this.remove('host', id, 'proxy.host.not_found');
    await this.deps.access.hostRemoved(id);
    return settings;
  }

  private remove(kind: 'host' | 'redirect' | 'stream', id: number, missing: 'proxy.host.not_found' | 'proxy.redirect.not_found' | 'proxy.stream.not_found') {
    return this.change(async (t) => {
      // The row holds an uploaded certificate too: it goes with it.
      const removed = await this.deps.rows.destroy({ where: { id, kind }, transaction: t });
      if (removed === 0) throw new ProblemError(missing, { id });
      this.deps.logger.info(`proxy ${kind} removed`, { component: 'proxy', id });
    });
  }

  async checkHost(id: number): Promise<ProxyTargetStatus> {
    const host = (await this.state()).hosts.find((h) => h.id === id);
    if (!host) throw new ProblemError('proxy.host.not_found', { id });
    return checkTarget(host.target, host.domains[0] ?? host.target.host, () => this.deps.clock.now());
  }

  setOptions(request: ProxyOptionsRequest): Promise<ProxySettings> {
    return this.change(async (t) => {
      const row = await this.deps.rows.findOne({ where: { kind: 'options' }, transaction: t });
      await this.write('options', row?.id ?? null, request, t);
      this.deps.logger.info('proxy options changed', { logCode: 'proxy.optionsChanged', component: 'proxy', ...request });
    });
  }

  private saveRedirect(id: number | null, request: ProxyRedirectRequest): Promise<ProxySettings> {
    return this.change(async (t, state) => {
      const old = id === null ? undefined : state.redirects.find((r) => r.id === id);
      if (id !== null && !old) throw new ProblemError('proxy.redirect.not_found', { id });
      this.assertDomainsFree(state, request.domains, { kind: 'redirect', id });
      const https = request.https ?? false;
      const kept = old?.certificate && sameNames(old.domains, request.domains) ? old.certificate : null;
      const redirect: StoredRedirect = {
        domains: request.domains,
        enabled: request.enabled ?? true,
        destination: request.destination,
        preservePath: request.preservePath ?? true,
        status: request.status ?? 301,
        https,
        certificate: https ? (kept ?? (await this.deps.tls.issue(request.domains))) : null,
      };
      await this.write('redirect', id, redirect, t);
      this.deps.logger.info('proxy redirect saved', { logCode: 'proxy.redirectSaved', component: 'proxy', domains: request.domains });
    });
  }

  createRedirect(request: ProxyRedirectRequest): Promise<ProxySettings> {
    return this.saveRedirect(null, request);
  }

  updateRedirect(id: number, request: ProxyRedirectRequest): Promise<ProxySettings> {
    return this.saveRedirect(id, request);
  }

  removeRedirect(id: number): Promise<ProxySettings> {
    return this.remove('redirect', id, 'proxy.redirect.not_found');
  }

  private saveStream(id: number | null, request: ProxyStreamRequest): Promise<ProxySettings> {
    return this.change(async (t, state) => {
      if (id !== null && !state.streams.some((s) => s.id === id)) throw new ProblemError('proxy.stream.not_found', { id });
      const { ports, boxPort } = this.deps.context();
      const clash = state.streams.some((s) => s.id !== id && s.port === request.port && s.protocols.some((p) => request.protocols.includes(p)));
      const ours = request.protocols.includes('tcp') && [ports.http, ports.https, boxPort].includes(request.port);
      if (clash || ours) throw new ProblemError('proxy.port.taken', { port: request.port });
      await this.write('stream', id, { ...request, enabled: request.enabled ?? true }, t);
      this.deps.logger.info('proxy stream saved', { logCode: 'proxy.streamSaved', component: 'proxy', port: request.port, protocols: request.protocols });
    });
  }

  createStream(request: ProxyStreamRequest): Promise<ProxySettings> {
    return this.saveStream(null, request);
  }

  updateStream(id: number, request: ProxyStreamRequest): Promise<ProxySettings> {
    return this.saveStream(id, request);
  }

  removeStream(id: number): Promise<ProxySettings> {
    return this.remove('stream', id, 'proxy.stream.not_found');
  }

  /** Renews the authority's certificates of hosts and redirects well before they end, and those of a replaced authority. */
  async maintain(): Promise<void> {
    const state = await this.state();
    const soon = this.deps.clock.now() + renewBeforeMs;
    const ending = (c: StoredCertificate | null) =>
      c !== null && (Date.parse(new X509Certificate(c.chainPem).validTo) < soon || !this.deps.tls.fromCurrentAuthority(c.chainPem));
    const hosts = state.hosts.filter((h) => h.tls.mode === 'authority' && ending(h.tls.certificate));
    const redirects = state.redirects.filter((r) => r.https && ending(r.certificate));
    if (hosts.length + redirects.length === 0) return;
    await this.change(async (t) => {
      for (const h of hosts)
        await this.write('host', h.id, { ...h, id: undefined, tls: { mode: 'authority', certificate: await this.deps.tls.issue(h.domains) } }, t);
      for (const r of redirects) await this.write('redirect', r.id, { ...r, id: undefined, certificate: await this.deps.tls.issue(r.domains) }, t);
      this.deps.logger.info('proxy certificates renewed', {
        logCode: 'proxy.certificatesRenewed',
        component: 'proxy',
        hosts: hosts.map((h) => h.id),
        redirects: redirects.map((r) => r.id),
      });
    });
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ');
}

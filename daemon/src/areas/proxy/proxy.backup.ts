import { createPrivateKey, X509Certificate } from 'node:crypto';
import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import { proxyHostRequest, proxyLimits, proxyOptionsRequest, proxyRedirectRequest, proxyStreamRequest } from '../../../../shared/src/api/proxy/proxy.ts';
import { tlsLimits } from '../../../../shared/src/api/tls/tls.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import { checkCustomCertificate } from '../tls/custom-certificate.ts';
import { splitPem } from '../tls/pki.ts';
import type { ProxyState, StoredCertificate } from './proxy-records.ts';

export interface ProxyBackupDeps {
  db: Sequelize;
  now: () => number;
  /** The proxy's rows as they are now (the service's state). */
  state(): Promise<ProxyState>;
  /** Ports the proxy itself answers on, and the web interface's: no stream may take them (as by hand). */
  ports(): { http: number; https: number; box: number };
  /** Makes nginx and the firewall follow the restored rows. */
  apply(): Promise<void>;
}

const rowId = () => Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required();
const certificate = Joi.object<StoredCertificate, true>({
  chainPem: Joi.string().max(tlsLimits.pemMax).required(),
  privateKeyPem: Joi.string().max(tlsLimits.pemMax).required(),
}).allow(null);
// A row as the service writes it: what the routes take, with every default filled and secrets as kept.
const host = (proxyHostRequest as Joi.ObjectSchema)
  .keys({
    id: rowId(),
    enabled: Joi.boolean().required(),
    tls: Joi.object({ mode: Joi.string().valid('none', 'authority', 'uploaded').required(), certificate: certificate.required() }).required(),
    forceHttps: Joi.boolean().required(),
    hsts: Joi.boolean().required(),
    http2: Joi.boolean().required(),
    websocket: Joi.boolean().required(),
    basicAuth: Joi.array()
      .items(
        Joi.object({
          username: Joi.string()
            .min(1)
            .max(64)
            .pattern(/^[^:\p{Cc}]+$/u)
            .required(),
          // bcrypt, as users/passwords.ts writes it: nginx's auth check reads nothing else.
          hash: Joi.string()
            .pattern(/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/)
            .required(),
        }),
      )
      .max(proxyLimits.basicAuthUsersMax)
      .unique('username')
      .required(),
  })
  .fork(['signIn'], (signIn) => signIn.required());
const redirect = (proxyRedirectRequest as Joi.ObjectSchema).keys({
  id: rowId(),
  enabled: Joi.boolean().required(),
  preservePath: Joi.boolean().required(),
  status: Joi.number().valid(301, 302, 307, 308).required(),
  https: Joi.boolean().required(),
  certificate: certificate.required(),
});
const stream = (proxyStreamRequest as Joi.ObjectSchema).keys({ id: rowId(), enabled: Joi.boolean().required() });
const schema = Joi.object<ProxyState, true>({
  options: proxyOptionsRequest.required(),
  hosts: Joi.array().items(host).max(1000).required(),
  redirects: Joi.array().items(redirect).max(1000).required(),
  streams: Joi.array().items(stream).max(1000).required(),
});

const invalid = (detail: string) => new ProblemError('backup.part.invalid', { part: 'proxy' }, { detail });

/** A certificate of the box's authority as the proxy keeps it: its chain reads, each signed by the next, and the key is the leaf's. */
function checkAuthorityCertificate(stored: StoredCertificate): void {
  let chain: X509Certificate[];
  try {
    chain = splitPem(stored.chainPem).map((pem) => new X509Certificate(pem));
  } catch {
    throw new ProblemError('tls.pem.invalid', { part: 'certificate' });
  }
  const leaf = chain[0];
  if (!leaf) throw new ProblemError('tls.pem.invalid', { part: 'certificate' });
  let matches: boolean;
  try {
    matches = leaf.checkPrivateKey(createPrivateKey(stored.privateKeyPem));
  } catch {
    throw new ProblemError('tls.pem.invalid', { part: 'privateKey' });
  }
  if (!matches) throw new ProblemError('tls.key.mismatch');
  chain.slice(1).forEach((issuer, index) => {
    if (!chain[index]!.checkIssued(issuer) || !chain[index]!.verify(issuer.publicKey))
      throw new ProblemError('tls.chain.order', { index, subject: chain[index]!.subject });
  });
}

/** A certificate check's refusal (tls.key.mismatch, tls.certificate.expired, ...) named in the part's refusal, with the entry. */
function certificateOf(entry: string, check: () => unknown): void {
  try {
    check();
  } catch (err) {
    if (err instanceof ProblemError) throw invalid(`${entry}: its certificate is refused (${err.code})`);
    throw err;
  }
}

/**
 * Checks what the service's own operations check when an administrator saves the same by hand:
 * names answered by one host or redirect only, no stream on a taken port or the proxy's own,
 * certificates that read (an uploaded one as an upload is checked), row ids that do not collide.
 */
function checkRules(state: ProxyState, deps: Pick<ProxyBackupDeps, 'now' | 'ports'>): void {
  const ids = new Set<number>();
  for (const row of [...state.hosts, ...state.redirects, ...state.streams]) {
    if (ids.has(row.id)) throw invalid(`two entries have the id ${row.id}`);
    ids.add(row.id);
  }
  const names = new Set<string>();
  for (const domain of [...state.hosts, ...state.redirects].flatMap((entry) => entry.domains)) {
    if (names.has(domain)) throw new ProblemError('proxy.domain.taken', { domain });
    names.add(domain);
  }
  for (const h of state.hosts) {
    const { mode, certificate: stored } = h.tls;
    if (mode === 'none' ? stored !== null : stored === null) throw invalid(`host ${h.id}: its certificate does not fit its mode ${mode}`);
    if (mode === 'uploaded' && stored) certificateOf(`host ${h.id}`, () => checkCustomCertificate(stored.chainPem, stored.privateKeyPem, deps.now()));
    if (mode === 'authority' && stored) certificateOf(`host ${h.id}`, () => checkAuthorityCertificate(stored));
  }
  for (const r of state.redirects) {
    if (r.https !== (r.certificate !== null)) throw invalid(`redirect ${r.id}: a certificate goes with https only`);
    const stored = r.certificate;
    if (stored) certificateOf(`redirect ${r.id}`, () => checkAuthorityCertificate(stored));
  }
  const ports = deps.ports();
  state.streams.forEach((s, index) => {
    const clash = state.streams.slice(0, index).some((o) => o.port === s.port && o.protocols.some((p) => s.protocols.includes(p)));
    const ours = s.protocols.includes('tcp') && [ports.http, ports.https, ports.box].includes(s.port);
    if (clash || ours) throw new ProblemError('proxy.port.taken', { port: s.port });
  });
}

/** The reverse proxy's hosts, redirects, streams and options (the proxy part of a backup), with their certificates and Basic Auth hashes. */
export function proxyBackupPart(deps: ProxyBackupDeps): BackupPart<ProxyState> {
  return {
    name: 'proxy',
    export: () => deps.state(),
    async inspect(raw) {
      const { value, error } = schema.validate(raw, { presence: 'optional', convert: false });
      if (error) throw invalid(error.message);
      checkRules(value, deps);
      return { data: value, counts: { hosts: value.hosts.length, redirects: value.redirects.length, streams: value.streams.length } };
    },
    async restore(data, transaction) {
      const now = new Date(deps.now()).toISOString();
      await deps.db.query('DELETE FROM proxy_entries', { transaction });
      // A sign-in cookie names its host by id, and a restored id may be another host's: visitors sign in again.
      await deps.db.query('DELETE FROM proxy_grants', { transaction });
      // The options last: their row takes the next free id.
      const rows = [
        ...data.hosts.map(({ id, ...rest }) => ({ id, kind: 'host', data: rest })),
        ...data.redirects.map(({ id, ...rest }) => ({ id, kind: 'redirect', data: rest })),
        ...data.streams.map(({ id, ...rest }) => ({ id, kind: 'stream', data: rest })),
        { id: null, kind: 'options', data: data.options },
      ];
      for (const row of rows) {
        await deps.db.query('INSERT INTO proxy_entries (id, kind, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', {
          replacements: [row.id, row.kind, JSON.stringify(row.data), now, now],
          transaction,
        });
      }
    },
    apply: () => deps.apply(),
  };
}

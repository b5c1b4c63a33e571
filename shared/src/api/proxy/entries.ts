import Joi from 'joi';
import { id, isoTime } from '../common.ts';
import { certificateInfo, tlsLimits, type CertificateInfo } from '../tls/tls.ts';

/** Limits of the reverse proxy area. */
export const proxyLimits = {
  domainsMax: 20,
  basicAuthUsersMax: 50,
  grantsMax: 500,
  /** A proxy ticket is valid this long, once (spec 8). */
  ticketMs: 30_000,
} as const;

/** Where a proxy host forwards to. */
export interface ProxyTarget {
  scheme: 'http' | 'https';
  /** A host name or an address. */
  host: string;
  port: number;
}

/** Who may pass a host's sign-in: administrators always, else the users and groups listed. */
export interface ProxySignIn {
  enabled: boolean;
  userIds: number[];
  groupIds: number[];
}

export interface ProxyHostRequest {
  domains: string[];
  enabled?: boolean;
  target: ProxyTarget;
  /** `authority`: a certificate from the box's authority (names inside its scope); `uploaded`: the certificate of this request or the one kept. */
  tls: { mode: 'none' | 'authority' | 'uploaded'; certificate?: string; privateKey?: string };
  forceHttps?: boolean;
  hsts?: boolean;
  http2?: boolean;
  websocket?: boolean;
  /** A user without a password keeps the one stored. */
  basicAuth?: { username: string; password?: string }[];
  signIn?: ProxySignIn;
}

export interface ProxyHost {
  id: number;
  domains: string[];
  enabled: boolean;
  target: ProxyTarget;
  tls: { mode: 'none' | 'authority' | 'uploaded'; certificate: CertificateInfo | null };
  forceHttps: boolean;
  hsts: boolean;
  http2: boolean;
  websocket: boolean;
  basicAuth: { username: string }[];
  signIn: ProxySignIn;
}

export interface ProxyRedirectRequest {
  domains: string[];
  enabled?: boolean;
  /** The address visitors are sent to (http or https). */
  destination: string;
  /** Append the request's path and query to the destination. */
  preservePath?: boolean;
  status?: 301 | 302 | 307 | 308;
  /** Answer on 443 with a certificate from the box's authority too. */
  https?: boolean;
}

export interface ProxyRedirect extends Required<Omit<ProxyRedirectRequest, 'status'>> {
  id: number;
  status: 301 | 302 | 307 | 308;
}

export interface ProxyStreamRequest {
  /** The box's port. */
  port: number;
  protocols: ('tcp' | 'udp')[];
  target: { host: string; port: number };
  enabled?: boolean;
}

export interface ProxyStream extends Required<ProxyStreamRequest> {
  id: number;
}

export interface ProxyOptionsRequest {
  /** What a name without an enabled host gets on 443 and 80. */
  unknownNames: 'redirect' | 'notFound';
  /** Where a host's sign-in sends visitors; null: the box on port 7484 under the name the visitor asked for. */
  signInUrl: string | null;
}

export interface ProxySettings extends ProxyOptionsRequest {
  ports: { http: number; https: number };
  /** nginx: running, stopped (nothing applied yet or development mode), or missing with the package to install. */
  nginx: { state: 'running' | 'stopped' | 'missing'; package: string | null };
  hosts: ProxyHost[];
  redirects: ProxyRedirect[];
  streams: ProxyStream[];
}

export interface ProxyTargetStatus {
  reachable: boolean;
  status: number | null;
  timeMs: number;
  /** Why no answer came (refused, timed out, name unknown). */
  error: string | null;
  /** What a verifying client would object to in the target's certificate (https targets). */
  certificateProblem: string | null;
}

export interface ProxyTicketRequest {
  /** The address on the proxy host the visitor asked for. */
  url: string;
}

export interface ProxyTicket {
  /** The address to open: the host's ticket address, which sets its cookie and goes on to the address asked. */
  url: string;
  expiresAt: string;
}

const domainName = () =>
  Joi.string()
    .max(253)
    .lowercase()
    .pattern(/^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/);
const targetHost = () => Joi.alternatives(Joi.string().ip({ cidr: 'forbidden' }), domainName());
const port = () => Joi.number().integer().min(1).max(65535);
// Addresses go into nginx's configuration: no quotes, spaces, variables or block characters.
const httpUrl = () =>
  Joi.string()
    .max(2000)
    .uri({ scheme: ['http', 'https'] })
    .pattern(/^[^\s"'$\\{};]+$/);
const domains = () => Joi.array().items(domainName()).min(1).max(proxyLimits.domainsMax).unique();
const grantIds = () => Joi.array().items(id()).max(proxyLimits.grantsMax).unique();
const tlsMode = () => Joi.string().valid('none', 'authority', 'uploaded');
// Basic Auth user names end at a colon in the header; no control characters either.
const basicUser = () =>
  Joi.string()
    .min(1)
    .max(64)
    .pattern(/^[^:\p{Cc}]+$/u);

const proxyTarget = Joi.object<ProxyTarget>({
  scheme: Joi.string().valid('http', 'https').required(),
  host: targetHost().required(),
  port: port().required(),
});
const signIn = Joi.object<ProxySignIn, true>({ enabled: Joi.boolean().required(), userIds: grantIds().required(), groupIds: grantIds().required() });

export const proxyHostRequest = Joi.object<ProxyHostRequest, true>({
  domains: domains().required(),
  enabled: Joi.boolean(),
  target: proxyTarget.required(),
  tls: Joi.object({
    mode: tlsMode().required(),
    certificate: Joi.string().max(tlsLimits.pemMax),
    privateKey: Joi.string().max(tlsLimits.pemMax),
  })
    .and('certificate', 'privateKey')
    .required(),
  forceHttps: Joi.boolean(),
  hsts: Joi.boolean(),
  http2: Joi.boolean(),
  websocket: Joi.boolean(),
  basicAuth: Joi.array()
    .items(Joi.object({ username: basicUser().required(), password: Joi.string().min(1).max(1024) }))
    .max(proxyLimits.basicAuthUsersMax)
    .unique('username'),
  signIn,
}).id('ProxyHostRequest');

const proxyHost = Joi.object<ProxyHost, true>({
  id: id().required(),
  domains: Joi.array().items(Joi.string()).required(),
  enabled: Joi.boolean().required(),
  target: proxyTarget.required(),
  tls: Joi.object({ mode: tlsMode().required(), certificate: certificateInfo.allow(null).required() }).required(),
  forceHttps: Joi.boolean().required(),
  hsts: Joi.boolean().required(),
  http2: Joi.boolean().required(),
  websocket: Joi.boolean().required(),
  basicAuth: Joi.array()
    .items(Joi.object({ username: Joi.string().required() }))
    .required(),
  signIn: signIn.required(),
}).id('ProxyHost');

const redirectStatus = () => Joi.number().valid(301, 302, 307, 308);

export const proxyRedirectRequest = Joi.object<ProxyRedirectRequest, true>({
  domains: domains().required(),
  enabled: Joi.boolean(),
  destination: httpUrl().required(),
  preservePath: Joi.boolean(),
  status: redirectStatus(),
  https: Joi.boolean(),
}).id('ProxyRedirectRequest');

const proxyRedirect = Joi.object<ProxyRedirect, true>({
  id: id().required(),
  domains: Joi.array().items(Joi.string()).required(),
  enabled: Joi.boolean().required(),
  destination: Joi.string().required(),
  preservePath: Joi.boolean().required(),
  status: redirectStatus().required(),
  https: Joi.boolean().required(),
}).id('ProxyRedirect');

const protocols = () => Joi.array().items(Joi.string().valid('tcp', 'udp')).min(1).unique();
const streamTarget = () => Joi.object({ host: targetHost().required(), port: port().required() });

export const proxyStreamRequest = Joi.object<ProxyStreamRequest, true>({
  port: port().required(),
  protocols: protocols().required(),
  target: streamTarget().required(),
  enabled: Joi.boolean(),
}).id('ProxyStreamRequest');

const proxyStream = Joi.object<ProxyStream, true>({
  id: id().required(),
  port: port().required(),
  protocols: protocols().required(),
  target: streamTarget().required(),
  enabled: Joi.boolean().required(),
}).id('ProxyStream');

export const proxyOptionsRequest = Joi.object<ProxyOptionsRequest, true>({
  unknownNames: Joi.string().valid('redirect', 'notFound').required(),
  signInUrl: httpUrl().allow(null).required(),
}).id('ProxyOptionsRequest');

export const proxySettings = Joi.object<ProxySettings, true>({
  unknownNames: Joi.string().valid('redirect', 'notFound').required(),
  signInUrl: Joi.string().allow(null).required(),
  ports: Joi.object({ http: port().required(), https: port().required() }).required(),
  nginx: Joi.object({ state: Joi.string().valid('running', 'stopped', 'missing').required(), package: Joi.string().allow(null).required() }).required(),
  hosts: Joi.array().items(proxyHost).required(),
  redirects: Joi.array().items(proxyRedirect).required(),
  streams: Joi.array().items(proxyStream).required(),
}).id('ProxySettings');

export const proxyTargetStatus = Joi.object<ProxyTargetStatus, true>({
  reachable: Joi.boolean().required(),
  status: Joi.number().integer().allow(null).required(),
  timeMs: Joi.number().min(0).required(),
  error: Joi.string().allow(null).required(),
  certificateProblem: Joi.string().allow(null).required(),
}).id('ProxyTargetStatus');

export const proxyTicketRequest = Joi.object<ProxyTicketRequest, true>({ url: httpUrl().required() }).id('ProxyTicketRequest');

export const proxyTicket = Joi.object<ProxyTicket, true>({ url: Joi.string().required(), expiresAt: isoTime().required() }).id('ProxyTicket');

import { tls12Ciphers } from '../../core/tls-ciphers.ts';

/** One proxy host as nginx serves it; `certificate` names files beside nginx.conf (`<name>.crt`, `<name>.key`). */
export interface NginxProxyHost {
  id: number;
  domains: string[];
  target: { scheme: 'http' | 'https'; host: string; port: number };
  certificate: string | null;
  forceHttps: boolean;
  hsts: boolean;
  http2: boolean;
  websocket: boolean;
  /** Ask the daemon for each request (Basic Auth, sign-in). */
  guarded: boolean;
}

export interface NginxRedirect {
  id: number;
  domains: string[];
  destination: string;
  preservePath: boolean;
  status: number;
  certificate: string | null;
}

export interface NginxStream {
  port: number;
  protocols: ('tcp' | 'udp')[];
  target: { host: string; port: number };
}

/** Everything nginx.conf is made of; certificates are written beside it by the caller. */
export interface NginxPlan {
  /** pid, logs and temporary files (absolute). */
  runtimeDir: string;
  /** null: every address of the box. */
  address: string | null;
  ports: { http: number; https: number };
  /** Where nginx reaches the daemon (its own listening address). */
  daemonUrl: string;
  /** The web interface's port: where unknown names are redirected. */
  boxPort: number;
  unknownNames: 'redirect' | 'notFound';
  /** Where the sign-in sends visitors; null: the box under the name asked. */
  signInUrl: string | null;
  /** Certificate of the default server on the HTTPS port (the box's own). */
  defaultCertificate: string;
  hosts: NginxProxyHost[];
  redirects: NginxRedirect[];
  streams: NginxStream[];
  /** Path of nginx's stream module; needed when there are streams. */
  streamModule: string | null;
  hostHeader: string;
  /** Header and value that make the daemon believe the X-Real-IP of nginx's auth_request (a local process cannot send them). */
  keyHeader: string;
  forwarderKey: string;
  /**
   * Cookies nginx keeps from the targets: the sign-in-protected hosts' own, and the box's session
   * and device cookies, which a browser also sends to a proxy host under the box's own name
   * (cookies are not kept apart by port).
   */
  keptCookies: string[];
}

const listen = (plan: NginxPlan, port: number, extra = ''): string => `listen ${plan.address ? `${plan.address}:` : ''}${port}${extra};`;

const portSuffix = (port: number, standard: number): string => (port === standard ? '' : `:${port}`);

function certificateLines(name: string): string[] {
  return [`ssl_certificate ${name}.crt;`, `ssl_certificate_key ${name}.key;`];
}

function block(head: string, lines: string[], indent = '  '): string[] {
  return [`${head} {`, ...lines.map((l) => (l ? indent + l : l)), '}'];
}

function unknownServer(plan: NginxPlan): string[] {
  const answer = plan.unknownNames === 'redirect' ? `return 302 https://$host:${plan.boxPort}$request_uri;` : 'return 404;';
  return [
    ...block('server', [listen(plan, plan.ports.http, ' default_server'), 'server_name _;', answer]),
    ...block('server', [listen(plan, plan.ports.https, ' ssl default_server'), 'server_name _;', ...certificateLines(plan.defaultCertificate), answer]),
  ];
}

/** The daemon's two endpoints every guarded host reaches: the per-request question and the ticket. */
function guardLocations(plan: NginxPlan, host: NginxProxyHost): string[] {
  const signIn = plan.signInUrl ?? `https://$host:${plan.boxPort}/`;
  const daemon = `${new URL(plan.daemonUrl).protocol}//cellar_daemon`;
  const daemonHeaders = [
    `proxy_set_header ${plan.hostHeader} ${host.id};`,
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header Host $host;',
    // Kept-alive connections to the daemon (see daemonUpstream).
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
  ];
  return [
    ...block('location = /.cellar/auth', [
      'internal;',
      `proxy_pass ${daemon}/api/proxy/authorize;`,
      'proxy_pass_request_body off;',
      'proxy_set_header Content-Length "";',
      // The visitor's address for the daemon's throttle, over any X-Real-IP the visitor sent, with the key that vouches for it.
      'proxy_set_header X-Real-IP $remote_addr;',
      `proxy_set_header ${plan.keyHeader} ${plan.forwarderKey};`,
      ...daemonHeaders,
    ]),
    ...block('location = /.cellar/ticket', [`proxy_pass ${daemon}/api/proxy/redeem$is_args$args;`, ...daemonHeaders]),
    // The daemon says which answer is missing: the box's sign-in (sent there with the address asked) or Basic Auth.
    ...block('location @cellar_unauthorized', [
      `if ($cellar_auth = "signin") { return 302 "${signIn}#proxy=$scheme://$http_host$request_uri"; }`,
      // Too many wrong passwords from this address: no password prompt, only when to try again.
      'if ($cellar_auth = "throttled") { add_header Retry-After $cellar_retry_after always; return 429; }',
      'add_header WWW-Authenticate \'Basic realm="Cellar"\' always;',
      'return 401;',
    ]),
  ];
}

function proxyLocation(host: NginxProxyHost): string[] {
  const lines = [
    `proxy_pass ${host.target.scheme}://cellar_host_${host.id};`,
    'proxy_http_version 1.1;',
    'proxy_set_header Host $host;',
    'proxy_set_header X-Real-IP $remote_addr;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    // "" keeps connections to the target open between requests; an upgrade request gets "upgrade".
    `proxy_set_header Connection ${host.websocket ? '$cellar_connection_upgrade' : '""'};`,
    // The box's sign-in cookie is the daemon's business, not the target's: the others go on.
    'proxy_set_header Cookie $cellar_target_cookie;',
  ];
  if (host.websocket) lines.push('proxy_set_header Upgrade $http_upgrade;', 'proxy_read_timeout 1h;');
  if (host.target.scheme === 'https') lines.push('proxy_ssl_server_name on;', `proxy_ssl_name ${host.target.host};`);
  if (host.guarded)
    lines.push(
      'auth_request /.cellar/auth;',
      'auth_request_set $cellar_auth $upstream_http_x_cellar_auth;',
      'auth_request_set $cellar_retry_after $upstream_http_retry_after;',
      'error_page 401 = @cellar_unauthorized;',
    );
  return block('location /', lines);
}

/**
 * Idle connections to a target or the daemon close before the other side closes them (Node's
 * servers, the daemon among them, after 5 s): a request nginx sends on a connection the other side
 * is closing fails, and nginx sends a POST again on no other.
 */
const idleUpstream = 'keepalive_timeout 4s;';

/**
 * Guarded hosts ask the daemon at every request: over kept-alive connections, or a busy host
 * opens a connection a request and runs the loopback out of ports (each waits 60 s in TIME_WAIT).
 */
function daemonUpstream(plan: NginxPlan): string[] {
  if (!plan.hosts.some((h) => h.guarded)) return [];
  return block('upstream cellar_daemon', [`server ${new URL(plan.daemonUrl).host};`, 'keepalive 8;', idleUpstream]);
}

function hostServers(plan: NginxPlan, host: NginxProxyHost): string[] {
  const names = `server_name ${host.domains.join(' ')};`;
  const upstream = block(`upstream cellar_host_${host.id}`, [`server ${host.target.host}:${host.target.port};`, 'keepalive 16;', idleUpstream]);
  const inner = [...proxyLocation(host), ...(host.guarded ? guardLocations(plan, host) : [])];
  const httpLines =
    host.certificate && host.forceHttps
      ? [listen(plan, plan.ports.http), names, `return 301 https://$host${portSuffix(plan.ports.https, 443)}$request_uri;`]
      : [listen(plan, plan.ports.http), names, ...inner];
  const servers = [...upstream, ...block('server', httpLines)];
  if (host.certificate) {
    const tls = [listen(plan, plan.ports.https, host.http2 ? ' ssl http2' : ' ssl'), names, ...certificateLines(host.certificate)];
    if (host.hsts) tls.push('add_header Strict-Transport-Security "max-age=31536000" always;');
    servers.push(...block('server', [...tls, ...inner]));
  }
  return servers;
}

function redirectServers(plan: NginxPlan, redirect: NginxRedirect): string[] {
  const names = `server_name ${redirect.domains.join(' ')};`;
  const answer = `return ${redirect.status} "${redirect.destination}${redirect.preservePath ? '$request_uri' : ''}";`;
  const servers = block('server', [listen(plan, plan.ports.http), names, answer]);
  if (redirect.certificate)
    servers.push(...block('server', [listen(plan, plan.ports.https, ' ssl'), names, ...certificateLines(redirect.certificate), answer]));
  return servers;
}

function streamServers(plan: NginxPlan): string[] {
  return plan.streams.flatMap((s) =>
    s.protocols.flatMap((p) => block('server', [listen(plan, s.port, p === 'udp' ? ' udp' : ''), `proxy_pass ${s.target.host}:${s.target.port};`])),
  );
}

const regexName = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * $cellar_target_cookie: the request's Cookie header without the kept cookies, one map a name. In
 * each, the first pattern takes the cookie off the end (with the separator before it), the second
 * anywhere else; a name counts only at the start or after a separator, so `xcellar_proxy` stays.
 * A name still there after its map (sent twice, as a browser does when a target set one of the same
 * name for a longer path) sends the target no cookies at all rather than one of the box's.
 */
function cookieMaps(names: string[]): string[] {
  const steps = names.map((name, i) => {
    const n = regexName(name);
    const from = i === 0 ? '$http_cookie' : `$cellar_cookie_${i}`;
    return block(`map ${from} $cellar_cookie_${i + 1}`, [
      `"~^(?<cellar_before_${i}>.*?);\\s*${n}=[^;]*;?\\s*$" $cellar_before_${i};`,
      `"~^(?<cellar_head_${i}>(?:[^;]*;)*?\\s*)${n}=[^;]*(?:;\\s*)?(?<cellar_tail_${i}>.*)$" $cellar_head_${i}$cellar_tail_${i};`,
      `default ${from};`,
    ]);
  });
  const any = names.map(regexName).join('|');
  return [
    ...steps.flat(),
    ...block(`map $cellar_cookie_${names.length} $cellar_target_cookie`, [`"~(?:^|;)\\s*(?:${any})=" "";`, `default $cellar_cookie_${names.length};`]),
  ];
}

/** nginx.conf for the proxy: everything nginx serves comes from the plan, nothing from /etc/nginx. */
export function renderNginxConfig(plan: NginxPlan): string {
  const run = plan.runtimeDir;
  const http = [
    'include /etc/nginx/mime.types;',
    `access_log off;`,
    `client_body_temp_path ${run}/client-body;`,
    `proxy_temp_path ${run}/proxy;`,
    `fastcgi_temp_path ${run}/fastcgi;`,
    `uwsgi_temp_path ${run}/uwsgi;`,
    `scgi_temp_path ${run}/scgi;`,
    'server_tokens off;',
    'client_max_body_size 0;',
    // A client keeps its connection for many requests: closing one every 1000 (the default) races with its next request.
    'keepalive_requests 100000;',
    'proxy_buffering off;',
    'proxy_request_buffering off;',
    'ssl_protocols TLSv1.2 TLSv1.3;',
    // The daemon's own HTTPS offers the same: ECDHE with AES-GCM or ChaCha20 for TLS 1.2, the client's choice among them.
    `ssl_ciphers ${tls12Ciphers.join(':')};`,
    'ssl_prefer_server_ciphers off;',
    'server_names_hash_bucket_size 128;',
    ...block('map $http_upgrade $cellar_connection_upgrade', ['default upgrade;', '\'\' "";']),
    ...cookieMaps(plan.keptCookies),
    ...daemonUpstream(plan),
    ...unknownServer(plan),
    ...plan.hosts.flatMap((h) => hostServers(plan, h)),
    ...plan.redirects.flatMap((r) => redirectServers(plan, r)),
  ];
  const lines = [
    '# Generated by the Cellar daemon from its database; changes here are overwritten.',
    ...(plan.streams.length > 0 && plan.streamModule ? [`load_module ${plan.streamModule};`] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${run}/nginx.pid;`,
    `error_log ${run}/error.log warn;`,
    ...block('events', ['worker_connections 1024;']),
    ...block('http', http),
    ...(plan.streams.length > 0 ? block('stream', streamServers(plan)) : []),
  ];
  return lines.join('\n') + '\n';
}

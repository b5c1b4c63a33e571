import { proxyHostHeader, proxyKeyHeader } from '../../../../shared/src/api/proxy/proxy.ts';
import type { NginxPlan } from '../../host/nginx/nginx-config.ts';
import type { NginxFile } from '../../host/nginx/nginx-host.ts';
import { sessionCookieName } from '../../http/app.ts';
import { deviceCookieName } from '../identity/auth/device-cookie.ts';
import { proxyCookie } from './proxy-access.ts';
import type { ProxyState, StoredCertificate } from './proxy-records.ts';

export interface PlanContext {
  runtimeDir: string;
  address: string | null;
  ports: { http: number; https: number };
  daemonUrl: string;
  boxPort: number;
  /** The box's presented certificate: the default server's on the HTTPS port. */
  boxCertificate: StoredCertificate;
  streamModule: string | null;
  /** The daemon's per-start secret nginx sends with the visitor's address. */
  forwarderKey: string;
}

/** nginx's plan and the certificate files beside its configuration, from the proxy's rows. */
export function buildPlan(state: ProxyState, context: PlanContext): { plan: NginxPlan; files: Record<string, NginxFile> } {
  const files: Record<string, NginxFile> = {};
  const addCertificate = (name: string, certificate: StoredCertificate): string => {
    files[`${name}.crt`] = { content: certificate.chainPem, mode: 0o644 };
    files[`${name}.key`] = { content: certificate.privateKeyPem, mode: 0o600 };
    return name;
  };
  addCertificate('box', context.boxCertificate);
  const hosts = state.hosts
    .filter((h) => h.enabled)
    .map((h) => ({
      id: h.id,
      domains: h.domains,
      target: h.target,
      certificate: h.tls.mode !== 'none' && h.tls.certificate ? addCertificate(`host-${h.id}`, h.tls.certificate) : null,
      forceHttps: h.forceHttps,
      hsts: h.hsts,
      http2: h.http2,
      websocket: h.websocket,
      guarded: h.basicAuth.length > 0 || h.signIn.enabled,
    }));
  const redirects = state.redirects
    .filter((r) => r.enabled)
    .map((r) => ({
      id: r.id,
      domains: r.domains,
      destination: r.destination,
      preservePath: r.preservePath,
      status: r.status,
      certificate: r.https && r.certificate ? addCertificate(`redirect-${r.id}`, r.certificate) : null,
    }));
  const streams = state.streams.filter((s) => s.enabled).map((s) => ({ port: s.port, protocols: s.protocols, target: s.target }));
  return {
    plan: {
      runtimeDir: context.runtimeDir,
      address: context.address,
      ports: context.ports,
      daemonUrl: context.daemonUrl,
      boxPort: context.boxPort,
      unknownNames: state.options.unknownNames,
      signInUrl: state.options.signInUrl,
      defaultCertificate: 'box',
      hosts,
      redirects,
      streams,
      streamModule: context.streamModule,
      hostHeader: proxyHostHeader,
      keyHeader: proxyKeyHeader,
      forwarderKey: context.forwarderKey,
      keptCookies: [proxyCookie, sessionCookieName, deviceCookieName],
    },
    files,
  };
}

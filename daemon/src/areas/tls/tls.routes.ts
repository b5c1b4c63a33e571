import type { tlsRoutes } from '../../../../shared/src/api/tls/tls.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { TlsService } from './tls.service.ts';

export function tlsHandlers(tls: TlsService): AreaHandlers<typeof tlsRoutes> {
  return {
    settings: () => tls.settings(),
    createAuthority: ({ body }) => tls.createAuthority(body),
    setCustom: ({ body }) => tls.setCustom(body),
    clearCustom: () => tls.clearCustom(),
    issue: ({ body }) => tls.devices.issue(body),
    removeIssued: ({ params }) => tls.devices.remove(params.id),
    revokeIssued: ({ params }) => tls.devices.revoke(params.id),
    revocationList: async ({ res }) => {
      const pem = await tls.devices.revocationList();
      res.setHeader('Cache-Control', 'no-cache');
      res.type('application/x-pem-file').send(pem);
    },
    issuedPem: async ({ params, res }) => {
      const pem = await tls.devices.pem(params.id);
      res.setHeader('Content-Disposition', `attachment; filename="certificate-${params.id}.pem"`);
      res.type('application/x-pem-file').send(pem);
    },
    setNames: ({ body }) => tls.setNames(body.names),
    rootCa: async ({ res }) => {
      const pem = await tls.rootPem();
      res.setHeader('Content-Disposition', 'attachment; filename="cellar-root-ca.crt"');
      res.setHeader('Cache-Control', 'no-cache');
      res.type('application/x-x509-ca-cert').send(pem);
    },
  };
}

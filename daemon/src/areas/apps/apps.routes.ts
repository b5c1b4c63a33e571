import type { appsRoutes } from '../../../../shared/src/api/apps/apps.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { AppIcons } from './app-icons.ts';
import type { InstalledAppsService } from './installed-apps.service.ts';
import type { StorageMappings } from './storage-mappings.ts';
import type { PackagesService } from './packages.service.ts';

/** Content-Length as a number; null for a chunked body. */
function declaredLength(header: string | undefined): number | null {
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
}

export function appsHandlers(
  packages: PackagesService,
  apps: InstalledAppsService,
  icons: AppIcons,
  mappings: StorageMappings,
): AreaHandlers<typeof appsRoutes> {
  return {
    uploadPackage: ({ user, body, req }) => packages.upload(user, body, declaredLength(req.get('Content-Length'))),
    package: ({ user, params }) => packages.preview(user, params.packageId),
    discardPackage: ({ user, params }) => packages.discard(user, params.packageId),
    install: ({ user, params, body }) => apps.install(user, params.packageId, body),
    list: () => apps.list(),
    update: ({ user, params, body }) => apps.setEnabled(user, params.appId, body.enabled),
    uninstall: ({ user, params, query }) => apps.uninstall(user, params.appId, query.data),
    rollback: ({ user, params }) => apps.rollback(user, params.appId),
    grants: ({ params }) => apps.grants(params.appId),
    setGrants: ({ params, body }) => apps.setGrants(params.appId, body.users, body.groups),
    icon: async ({ user, params, res }) => {
      const svg = await icons.icon(user, params.appId);
      // An SVG is a document: sandboxed without any source, never sniffed, so it can only be a picture.
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, no-cache');
      res.type('image/svg+xml').send(svg);
    },
    setLogLevel: ({ params, body }) => apps.setLogLevel(params.appId, body.level),
    setPermissions: ({ params, body }) => apps.setPermissions(params.appId, body.permissions),
    setUpdatePolicy: ({ params, body }) => apps.setUpdatePolicy(params.appId, body.policy),
    setQuota: ({ user, params, body }) => apps.setQuota(user, params.appId, body.quotaBytes),
    issueToken: ({ user, params, body }) => apps.issueToken(user, params.appId, body),
    mapStorage: ({ params, body }) => mappings.map(params.appId, params.storageId, body),
    unmapStorage: ({ params }) => mappings.unmap(params.appId, params.storageId),
    closeWindow: ({ user, params, query }) => apps.closeWindow(user, params.appId, query.instanceId),
  };
}

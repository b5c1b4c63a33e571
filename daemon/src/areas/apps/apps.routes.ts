import type { appsRoutes } from '../../../../shared/src/api/apps.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { PackagesService } from './packages.service.ts';

/** Content-Length as a number; null for a chunked body. */
function declaredLength(header: string | undefined): number | null {
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
}

export function appsHandlers(packages: PackagesService): AreaHandlers<typeof appsRoutes> {
  return {
    uploadPackage: ({ user, body, req }) => packages.upload(user, body, declaredLength(req.get('Content-Length'))),
    package: ({ user, params }) => packages.preview(user, params.packageId),
    discardPackage: ({ user, params }) => packages.discard(user, params.packageId),
  };
}

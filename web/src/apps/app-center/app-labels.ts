import type { AppUpdatePolicy } from '../../../../shared/src/api/apps/apps.ts';
import { appsRoutes } from '../../../../shared/src/api/apps/apps.ts';
import { buildUrl } from '../../../../shared/src/client.ts';
import type { MessageKey } from '../../lib/i18n/messages.ts';

/** The words of an update policy; null follows the box's own. */
export function policyKey(policy: AppUpdatePolicy): MessageKey {
  return policy === null ? 'appCenter.policy.default' : `appCenter.policy.${policy}`;
}

/** The installed app's icon, served sandboxed by the box and shown only through <img>. */
export function iconUrl(appId: string): string {
  return buildUrl(appsRoutes.icon, { appId });
}

import { desktopRoutes, deviceIdHeader, type DesktopItem, type DesktopItemChange, type DesktopState } from '../../../shared/src/api/desktop/desktop.ts';
import { ApiError, readAnswer, send } from '../../../shared/src/client.ts';
import { api, apiOptions } from '../lib/api.ts';

const deviceKey = 'cellar.deviceId';

/**
 * This browser's device id (X-Device-Id): a random UUID made once and kept in localStorage,
 * so each browser profile keeps its own icon layout.
 */
export function deviceId(): string {
  let id = localStorage.getItem(deviceKey);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    id = crypto.randomUUID();
    localStorage.setItem(deviceKey, id);
  }
  return id;
}

const device = () => ({ [deviceIdHeader]: deviceId() });

export function loadDesktop(): Promise<DesktopState> {
  return api.desktop.get({ headers: device() });
}

/** The version a 412 answer carries as the current one. */
export function conflictVersion(err: unknown, code: string): number | null {
  if (!(err instanceof ApiError) || err.code !== code) return null;
  const version = err.problem.params?.version;
  return typeof version === 'number' ? version : null;
}

/** Saves this device's layout if it is still at `version`; answers the new version (the ETag). */
export async function saveLayout(layout: unknown, version: number): Promise<number> {
  const response = await send(apiOptions, desktopRoutes.saveLayout, { body: layout, headers: { ...device(), 'If-Match': `"${version}"` } });
  await readAnswer(response);
  return Number(JSON.parse(response.headers.get('ETag') ?? `"${version + 1}"`));
}

/** Changes an item if it is still at its version; a 412 desktop.item.conflict throws. */
export function updateItem(item: DesktopItem, change: DesktopItemChange): Promise<DesktopItem> {
  return api.desktop.updateItem({ params: { id: item.id }, body: change, headers: { 'If-Match': `"${item.version}"` } });
}

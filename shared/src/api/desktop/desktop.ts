import Joi from 'joi';
import { idParams } from '../common.ts';
import {
  appearanceSchema,
  appId,
  copyLayoutSchema,
  desktopItemChangeSchema,
  desktopItemSchema,
  desktopStateSchema,
  deviceLayoutSchema,
  layoutBodySchema,
  newDesktopItemSchema,
  savedLayoutSchema,
  windowPreferenceRequestSchema,
} from './state.ts';
import { desktopWallpaperRoutes } from './wallpaper.ts';
import { defineRoute } from '../route.ts';

export * from './state.ts';
export * from './wallpaper.ts';

const deviceNote =
  'This device is named by the `X-Device-Id` request header: an id of 8 to 64 letters, digits, `-` or `_` that the web makes once (a random UUID) and keeps in localStorage. Without it the device is `default-device`, one layout shared by every client that sends none (curl, scripts); a malformed one answers 400 `desktop.device.invalid`.';
const ifMatchNote =
  'If-Match is optional and holds one version as a quoted number (`"3"`, as the ETag gives it). A different version answers 412 with the current one in `params.version`; without If-Match the change is unconditional. Any other If-Match (unquoted `3`, `*`, a list, weak `W/"3"`, garbage) answers 400 `desktop.if_match.invalid`.';

export const desktopRoutes = {
  get: defineRoute({
    id: 'desktop.get',
    method: 'GET',
    path: '/api/desktop',
    access: 'user',
    summary:
      "The caller's desktop on this device: appearance, this device's layout and its version, items, window preferences and the apps the caller may open",
    description: deviceNote,
    headers: ['X-Device-Id'],
    status: 200,
    response: desktopStateSchema,
    errors: ['desktop.device.invalid'],
  }),
  setAppearance: defineRoute({
    id: 'desktop.setAppearance',
    method: 'PUT',
    path: '/api/desktop/appearance',
    access: 'user',
    summary: 'Saves accent colour (`#rrggbb`) and wallpaper (a built-in one, or `custom` for the uploaded image) of the caller for every device',
    description: '`custom` without an uploaded image answers 409 `desktop.wallpaper.missing`; `wallpaperVersion` is ignored.',
    body: appearanceSchema,
    status: 204,
    errors: ['desktop.wallpaper.missing'],
  }),
  devices: defineRoute({
    id: 'desktop.devices',
    method: 'GET',
    path: '/api/desktop/devices',
    access: 'user',
    summary: "The caller's saved layouts, one per device, most recently saved first",
    status: 200,
    response: Joi.array().items(deviceLayoutSchema),
    errors: [],
  }),
  listItems: defineRoute({
    id: 'desktop.listItems',
    method: 'GET',
    path: '/api/desktop/items',
    access: 'user',
    summary: "The caller's desktop items, each with its version",
    status: 200,
    response: Joi.array().items(desktopItemSchema),
    errors: [],
  }),
  createItem: defineRoute({
    id: 'desktop.createItem',
    method: 'POST',
    path: '/api/desktop/items',
    access: 'user',
    summary: 'Adds a shortcut to an app or a folder',
    description: 'Answers 201 with the item; `Location` is the item URL and `ETag` its version. A desktop holds at most 500 items.',
    body: newDesktopItemSchema,
    status: 201,
    response: desktopItemSchema,
    errors: ['desktop.items.too_many'],
  }),
  updateItem: defineRoute({
    id: 'desktop.updateItem',
    method: 'PATCH',
    path: '/api/desktop/items/{id}',
    access: 'user',
    summary: 'Changes a desktop item; omitted fields stay',
    description: `${ifMatchNote} The new version is in \`ETag\`. An app item takes \`appId\`, a folder item \`shareId\` and \`path\`; the other kind's fields answer 400 \`desktop.item.invalid\`.`,
    headers: ['If-Match'],
    params: idParams,
    body: desktopItemChangeSchema,
    status: 200,
    response: desktopItemSchema,
    errors: ['desktop.item.conflict', 'desktop.item.not_found', 'desktop.item.invalid', 'desktop.if_match.invalid'],
  }),
  deleteItem: defineRoute({
    id: 'desktop.deleteItem',
    method: 'DELETE',
    path: '/api/desktop/items/{id}',
    access: 'user',
    summary: 'Removes a desktop item; also 204 when there is no such item',
    params: idParams,
    status: 204,
    errors: [],
  }),
  saveLayout: defineRoute({
    id: 'desktop.saveLayout',
    method: 'PUT',
    path: '/api/desktop/layout',
    access: 'user',
    summary: "Saves this device's layout (any JSON)",
    description: `${deviceNote} ${ifMatchNote} The version comes from GET /api/desktop (\`layoutVersion\`, 0 before the first save) or the last save's ETag. The new version is in \`ETag\`.`,
    headers: ['If-Match', 'X-Device-Id'],
    body: layoutBodySchema,
    bodyLimit: 256 * 1024,
    status: 204,
    errors: ['desktop.layout.conflict', 'desktop.device.invalid', 'desktop.if_match.invalid'],
  }),
  copyLayout: defineRoute({
    id: 'desktop.copyLayout',
    method: 'POST',
    path: '/api/desktop/layout/copy',
    access: 'user',
    summary: "Copies one device's layout to another device of the caller, replacing what that one had",
    description:
      'Answers the target device and its new layout version (also in `ETag`). A source device without a saved layout answers 404 `desktop.layout.not_found`.',
    body: copyLayoutSchema,
    status: 200,
    response: savedLayoutSchema,
    errors: ['desktop.layout.not_found'],
  }),
  setWindowPreference: defineRoute({
    id: 'desktop.setWindowPreference',
    method: 'PUT',
    path: '/api/desktop/preferences/{appId}',
    access: 'user',
    summary: "Saves where and how large the caller's windows of an app open, and whether maximised",
    params: Joi.object<{ appId: string }, true>({ appId: appId().required() }),
    body: windowPreferenceRequestSchema,
    status: 204,
    errors: [],
  }),
  ...desktopWallpaperRoutes,
};

import { desktopRoutes } from '../../../../shared/src/api/desktop/desktop.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import { etagOf, parseDeviceId, parseIfMatch } from './desktop-headers.ts';
import type { DesktopWallpaper } from './desktop-wallpaper.ts';
import { desktopWallpaperHandlers } from './desktop-wallpaper.routes.ts';
import type { DesktopService } from './desktop.service.ts';

export function desktopHandlers(desktop: DesktopService, wallpaper: DesktopWallpaper): AreaHandlers<typeof desktopRoutes> {
  return {
    get: ({ user, req }) => desktop.state(user, parseDeviceId(req.get('X-Device-Id'))),
    setAppearance: async ({ user, body }) => void (await desktop.setAppearance(user.id, body)),
    devices: ({ user }) => desktop.layouts.devices(user.id),
    listItems: ({ user }) => desktop.items.list(user.id),
    createItem: async ({ user, body, res }) => {
      const item = await desktop.items.create(user.id, body);
      res.setHeader('Location', `/api/desktop/items/${item.id}`);
      res.setHeader('ETag', etagOf(item.version));
      return item;
    },
    updateItem: async ({ user, params, body, req, res }) => {
      const item = await desktop.items.update(user.id, params.id, body, parseIfMatch(req.get('If-Match')));
      res.setHeader('ETag', etagOf(item.version));
      return item;
    },
    deleteItem: ({ user, params }) => desktop.items.remove(user.id, params.id),
    saveLayout: async ({ user, body, req, res }) => {
      const deviceId = parseDeviceId(req.get('X-Device-Id'));
      const version = await desktop.layouts.save(user.id, deviceId, body, parseIfMatch(req.get('If-Match')), req.get('User-Agent'));
      res.setHeader('ETag', etagOf(version));
    },
    copyLayout: async ({ user, body, req, res }) => {
      const saved = await desktop.layouts.copy(user.id, body.fromDeviceId, body.toDeviceId, req.get('User-Agent'));
      res.setHeader('ETag', etagOf(saved.version));
      return saved;
    },
    setWindowPreference: ({ user, params, body }) => desktop.setWindowPreference(user.id, params.appId, body),
    ...desktopWallpaperHandlers(wallpaper),
  };
}

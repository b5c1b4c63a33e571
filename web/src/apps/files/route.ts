/**
 * The Files app's sub-route: `<shareId>/<path>` for a folder (so a reload or a desktop
 * shortcut opens the same folder) and `trash/<shareId>` for a share's recycle bin; '' is
 * "no share chosen yet". The window manager encodes the route's segments in the URL itself.
 */
export type FilesRoute = { view: 'folder'; shareId: number; path: string } | { view: 'trash'; shareId: number } | { view: 'none' };

const shareIdPattern = /^[1-9]\d{0,15}$/;

export function parseRoute(route: string): FilesRoute {
  const [first = '', ...rest] = route.split('/').filter((s) => s !== '');
  if (first === 'trash') return rest.length === 1 && shareIdPattern.test(rest[0] ?? '') ? { view: 'trash', shareId: Number(rest[0]) } : { view: 'none' };
  if (!shareIdPattern.test(first)) return { view: 'none' };
  return { view: 'folder', shareId: Number(first), path: rest.join('/') };
}

export function formatRoute(route: FilesRoute): string {
  if (route.view === 'none') return '';
  if (route.view === 'trash') return `trash/${route.shareId}`;
  return route.path === '' ? String(route.shareId) : `${route.shareId}/${route.path}`;
}

/** The folder holding a path ('' for a top-level entry). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

export function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** Breadcrumb steps from the share's top to the folder: [{name, path}]. */
export function crumbs(path: string): { name: string; path: string }[] {
  if (path === '') return [];
  const parts = path.split('/');
  return parts.map((name, i) => ({ name, path: parts.slice(0, i + 1).join('/') }));
}

import { desktopRoutes, type Appearance, type Wallpaper } from '../../../shared/src/api/desktop/desktop.ts';
import { buildUrl } from '../../../shared/src/client.ts';

/** The built-in wallpapers: CSS only, so they cost no download. */
export const wallpaperCss: Record<Wallpaper, string> = {
  aurora:
    'radial-gradient(ellipse at 20% 10%, #9fe3d2 0%, transparent 55%), radial-gradient(ellipse at 80% 0%, #b7a6f2 0%, transparent 50%), linear-gradient(160deg, #1d3557 0%, #274c77 55%, #3d5a80 100%)',
  dunes: 'radial-gradient(ellipse at 70% 110%, #c9793f 0%, transparent 60%), linear-gradient(175deg, #f7dfbd 0%, #eab98a 55%, #d38c5a 100%)',
  forest: 'radial-gradient(ellipse at 30% 0%, #bfe0b0 0%, transparent 50%), linear-gradient(165deg, #6d9f71 0%, #3f6e4c 50%, #24452f 100%)',
  lake: 'radial-gradient(ellipse at 50% 120%, #5fa8d3 0%, transparent 60%), linear-gradient(180deg, #e3f2fd 0%, #a9d1ee 50%, #62a0c9 100%)',
  slate: 'linear-gradient(150deg, #e4e7eb 0%, #bcc3cc 50%, #9aa5b1 100%)',
};

/** The user's uploaded image at its version: a new upload is a new URL, so the browser may keep each one for good. */
export function wallpaperUrl(version: string): string {
  return buildUrl(desktopRoutes.getWallpaper, {}, { v: version });
}

/** The CSS background of the appearance's wallpaper; the default built-in one while an uploaded image is missing. */
export function wallpaperBackground(appearance: Appearance): string {
  if (appearance.wallpaper !== 'custom') return wallpaperCss[appearance.wallpaper];
  if (!appearance.wallpaperVersion) return wallpaperCss.aurora;
  // The slate colour shows while the image loads and around it, should its proportions differ.
  return `url("${wallpaperUrl(appearance.wallpaperVersion)}") center / cover no-repeat, #3d4a5c`;
}

/** A darker shade of `#rrggbb` for hover states. */
export function shade(hex: string, factor: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const part = (shift: number) => Math.round(((n >> shift) & 255) * factor);
  return `#${[16, 8, 0].map((s) => part(s).toString(16).padStart(2, '0')).join('')}`;
}

/** Applies the user's appearance to the page through the theme's CSS variables. */
export function applyAppearance(appearance: Appearance, root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--accent', appearance.accentColor);
  root.style.setProperty('--accent-hover', shade(appearance.accentColor, 0.8));
  root.style.setProperty('--focus', shade(appearance.accentColor, 0.7));
  root.style.setProperty('--wallpaper', wallpaperBackground(appearance));
}

import Joi from 'joi';
import { appIdMaxLength, appIdPattern, type WindowSize } from '../../apps.ts';
import { id, isoTime } from '../common.ts';

/**
 * How the daemon tells devices apart: the web makes a random id once (crypto.randomUUID())
 * and keeps it in localStorage; every request that reads or saves "this device's" layout
 * sends it in this header.
 */
export const deviceIdHeader = 'X-Device-Id';
export const deviceIdPattern = /^[A-Za-z0-9_-]{8,64}$/;
/** The device of a client that sends no X-Device-Id (curl, a script): one layout they all share. */
export const defaultDeviceId = 'default-device';

export const wallpapers = ['aurora', 'dunes', 'forest', 'lake', 'slate'] as const;
/** One of the built-in wallpapers. */
export type Wallpaper = (typeof wallpapers)[number];
/** The user's own uploaded image (GET /api/desktop/wallpaper) as the wallpaper. */
export const customWallpaper = 'custom';
export type WallpaperChoice = Wallpaper | typeof customWallpaper;

export interface Appearance {
  /** `#rrggbb`; stored and answered in lower case. */
  accentColor: string;
  /** A built-in wallpaper, or `custom` (only while an image is stored). */
  wallpaper: WallpaperChoice;
  /**
   * Answered only while the user has an uploaded image (whatever the chosen wallpaper): its version,
   * for `GET /api/desktop/wallpaper?v=`. Ignored in a request: the image changes only by upload.
   */
  wallpaperVersion?: string;
}

export const defaultAppearance: Appearance = {
  accentColor: '#2f6fdf',
  wallpaper: 'aurora',
};

export type DesktopItemKind = 'app' | 'folder';

/** A shortcut on the desktop, the same on every device; where it sits is part of each device's layout. */
export interface DesktopItem {
  id: number;
  kind: DesktopItemKind;
  label: string;
  /** The app an `app` item opens; null for folders. */
  appId: string | null;
  /** The share and the path inside it of a `folder` item ('' is the share's top); null for apps. */
  shareId: number | null;
  path: string | null;
  /** Changes with every change; sent as ETag and checked through If-Match. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface NewDesktopItem {
  kind: DesktopItemKind;
  label: string;
  appId?: string;
  shareId?: number;
  path?: string;
}

/** Omitted fields stay as they are. */
export interface DesktopItemChange {
  label?: string;
  appId?: string;
  shareId?: number;
  path?: string;
}

export interface DeviceLayout {
  deviceId: string;
  /** Whatever the web keeps for this device (icon positions, open windows); any JSON. */
  layout: unknown;
  version: number;
  /** Browser of the last save, so people can tell their devices apart when copying. */
  userAgent: string | null;
  updatedAt: string;
}

export interface CopyLayoutRequest {
  fromDeviceId: string;
  toDeviceId: string;
}

export interface SavedLayout {
  deviceId: string;
  version: number;
}

export interface WindowPreferenceRequest {
  width: number;
  height: number;
  /** Top-left corner; null lets the window manager place the window. */
  x: number | null;
  y: number | null;
  maximised: boolean;
}

export interface WindowPreference extends WindowPreferenceRequest {
  appId: string;
  updatedAt: string;
}

/** An app as the start menu shows it: a core app, or an installed one with its frontend. */
export interface DesktopApp {
  id: string;
  /** Icon name of the web desktop's icon set. */
  icon: string;
  title: { en: string; de: string };
  defaultWindow: WindowSize;
  /** Installed apps: the page their windows show (sandboxed) and their own icon; null for core apps. */
  frontend: string | null;
  iconUrl: string | null;
}

export interface DesktopState {
  deviceId: string;
  appearance: Appearance;
  /** This device's layout, null before its first save. */
  layout: unknown;
  /** 0 before the first save; send it as If-Match `"0"` to create the layout only if none exists. */
  layoutVersion: number;
  items: DesktopItem[];
  windowPreferences: WindowPreference[];
  /** The core apps this user may open. */
  apps: DesktopApp[];
}

export const deviceId = () => Joi.string().pattern(deviceIdPattern, 'device id');
export const appId = () => Joi.string().max(appIdMaxLength).pattern(appIdPattern, 'app id');

/** A path inside a share: `/`-separated, relative, without `.`, `..`, empty segments or NUL. */
export const sharePath = () =>
  Joi.string()
    .allow('')
    .max(4096)
    .custom((value: string, helpers) => {
      if (value === '') return value;
      if (value.includes('\0') || value.split('/').some((s) => s === '' || s === '.' || s === '..')) return helpers.error('any.invalid');
      return value;
    }, 'share path');

const label = () => Joi.string().trim().min(1).max(100);
const version = () => Joi.number().integer().min(0);
/** Short hex of the stored image's content. */
export const wallpaperVersion = () => Joi.string().pattern(/^[0-9a-f]{1,64}$/, 'hex version');

export const appearanceSchema = Joi.object<Appearance, true>({
  accentColor: Joi.string()
    .pattern(/^#[0-9a-fA-F]{6}$/, '#rrggbb')
    .required(),
  wallpaper: Joi.string()
    .valid(...wallpapers, customWallpaper)
    .required(),
  wallpaperVersion: wallpaperVersion(),
}).id('Appearance');

export const desktopItemSchema = Joi.object<DesktopItem, true>({
  id: id().required(),
  kind: Joi.string().valid('app', 'folder').required(),
  label: Joi.string().required(),
  appId: Joi.string().allow(null).required(),
  shareId: id().allow(null).required(),
  path: Joi.string().allow('', null).required(),
  version: version().required(),
  createdAt: isoTime().required(),
  updatedAt: isoTime().required(),
}).id('DesktopItem');

export const newDesktopItemSchema = Joi.object<NewDesktopItem, true>({
  kind: Joi.string().valid('app', 'folder').required(),
  label: label().required(),
  appId: appId().when('kind', {
    is: 'app',
    then: Joi.required(),
    otherwise: Joi.forbidden(),
  }),
  shareId: id().when('kind', {
    is: 'folder',
    then: Joi.required(),
    otherwise: Joi.forbidden(),
  }),
  path: sharePath().when('kind', {
    is: 'folder',
    then: Joi.required(),
    otherwise: Joi.forbidden(),
  }),
}).id('NewDesktopItem');

export const desktopItemChangeSchema = Joi.object<DesktopItemChange, true>({
  label: label(),
  appId: appId(),
  shareId: id(),
  path: sharePath(),
}).id('DesktopItemChange');

/**
 * Joi's strictly typed objects have no schema for an `unknown` field, so the any-JSON
 * `layout` is added after the checked fields.
 */
function withLayout<T extends { layout: unknown }>(checked: Joi.ObjectSchema<Omit<T, 'layout'>>): Joi.ObjectSchema<T> {
  return (checked as Joi.ObjectSchema).keys({ layout: Joi.any().required() }) as Joi.ObjectSchema<T>;
}

export const deviceLayoutSchema = withLayout<DeviceLayout>(
  Joi.object<Omit<DeviceLayout, 'layout'>, true>({
    deviceId: Joi.string().required(),
    version: version().required(),
    userAgent: Joi.string().allow(null).required(),
    updatedAt: isoTime().required(),
  }),
).id('DeviceLayout');

/** Any JSON value, null included; the web decides its shape. */
export const layoutBodySchema = Joi.any().required().id('JsonElement');

export const copyLayoutSchema = Joi.object<CopyLayoutRequest, true>({
  fromDeviceId: deviceId().required(),
  toDeviceId: deviceId().required(),
}).id('CopyLayoutRequest');

export const savedLayoutSchema = Joi.object<SavedLayout, true>({
  deviceId: Joi.string().required(),
  version: version().required(),
}).id('SavedLayout');

const windowFields = {
  width: Joi.number().integer().min(100).max(10000).required(),
  height: Joi.number().integer().min(100).max(10000).required(),
  x: Joi.number().integer().min(-10000).max(10000).allow(null).required(),
  y: Joi.number().integer().min(-10000).max(10000).allow(null).required(),
  maximised: Joi.boolean().required(),
};

export const windowPreferenceRequestSchema = Joi.object<WindowPreferenceRequest, true>(windowFields).id('WindowPreferenceRequest');

export const windowPreferenceSchema = Joi.object<WindowPreference, true>({
  ...windowFields,
  appId: Joi.string().required(),
  updatedAt: isoTime().required(),
}).id('WindowPreference');

const desktopAppSchema = Joi.object<DesktopApp, true>({
  id: Joi.string().required(),
  icon: Joi.string().required(),
  frontend: Joi.string().allow(null).required(),
  iconUrl: Joi.string().allow(null).required(),
  title: Joi.object({
    en: Joi.string().required(),
    de: Joi.string().required(),
  }).required(),
  defaultWindow: Joi.object({
    width: Joi.number().integer().required(),
    height: Joi.number().integer().required(),
  }).required(),
}).id('DesktopApp');

export const desktopStateSchema = withLayout<DesktopState>(
  Joi.object<Omit<DesktopState, 'layout'>, true>({
    deviceId: Joi.string().required(),
    appearance: appearanceSchema.required(),
    layoutVersion: version().required(),
    items: Joi.array().items(desktopItemSchema).required(),
    windowPreferences: Joi.array().items(windowPreferenceSchema).required(),
    apps: Joi.array().items(desktopAppSchema).required(),
  }),
).id('DesktopState');

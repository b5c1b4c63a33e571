import { defineErrors } from './catalog-entry.ts';

export const desktopErrors = defineErrors({
  'desktop.item.conflict': {
    status: 412,
    title: 'The desktop item was changed meanwhile',
    params: ['version'],
  },
  'desktop.layout.conflict': {
    status: 412,
    title: 'The layout of this device was changed meanwhile',
    params: ['version'],
  },
  'desktop.item.not_found': {
    status: 404,
    title: 'There is no such desktop item',
  },
  'desktop.item.invalid': {
    status: 400,
    title: 'The desktop item does not fit its kind',
    params: ['errors'],
  },
  'desktop.items.too_many': {
    status: 409,
    title: 'The desktop holds as many items as it can',
    params: ['limit'],
  },
  'desktop.layout.not_found': {
    status: 404,
    title: 'That device has no saved layout',
    params: ['deviceId'],
  },
  'desktop.device.invalid': {
    status: 400,
    title: 'The X-Device-Id header is missing or malformed',
  },
  'desktop.wallpaper.invalid': {
    status: 400,
    title: 'The wallpaper is not a JPEG, PNG or WebP image the box can read',
    params: ['reason'],
    reasons: ['notAnImage', 'unsupportedType', 'tooManyPixels', 'corrupt'],
  },
  'desktop.wallpaper.not_found': {
    status: 404,
    title: 'There is no uploaded wallpaper',
  },
  'desktop.wallpaper.missing': {
    status: 409,
    title: 'The wallpaper cannot be custom without an uploaded image',
  },
  'desktop.if_match.invalid': {
    status: 400,
    title: 'If-Match must be one quoted version number, such as "3"',
  },
});

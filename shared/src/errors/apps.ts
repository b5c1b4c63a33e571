import { defineErrors } from './catalog-entry.ts';

/** Codes of the apps area: packages (upload, checks, kept copies) and installed apps. */
export const appErrors = defineErrors({
  'app.package.not_found': { status: 404, title: 'The package is not kept any more, or it was never uploaded', params: ['packageId'] },
  'app.package.invalid': {
    status: 400,
    title: 'The file is not a valid app package',
    // reason: notGzip, truncated, notTar, tooManyEntries, tooLarge, manifestMissing, manifestUnreadable, manifestInvalid, iconMissing, frontendMissing, backendMissing
    params: ['reason', 'errors', 'limit'],
  },
  'app.package.entry_refused': {
    status: 400,
    title: 'An entry of the package is not allowed',
    // reason: absolute, dotDot, nameInvalid, linkOutside, hardLinkOutside, device, fifo, setId, duplicate, caseDuplicate, unknownType
    params: ['entry', 'reason'],
  },
  'app.package.id_reserved': { status: 400, title: 'The app id belongs to the box’s own apps', params: ['id'] },
  'app.package.icon_invalid': { status: 400, title: 'The icon of the package is not a plain SVG image', params: ['reason'] },
  'app.package.downgrade_unsupported': {
    status: 409,
    title: 'An older version with another data version cannot replace the installed one',
    params: ['installedVersion', 'installedDataVersion', 'dataVersion'],
  },
  'app.package.source_changed': {
    status: 409,
    title: 'The installed app comes from another source: it takes versions only from there unless an administrator switches its source',
    params: ['appId', 'source', 'installedSource'],
  },
  'app.package.box_too_old': { status: 409, title: 'The app needs a newer version of the box', params: ['needs', 'box'] },
  'app.app.not_found': { status: 404, title: 'There is no such app, or you may not use it', params: ['appId'] },
  'app.app.busy': { status: 409, title: 'Another change of this app is under way', params: ['appId', 'jobId'] },
  'app.app.no_previous': { status: 409, title: 'There is no earlier version to return to', params: ['appId'] },
  'app.app.disabled': { status: 409, title: 'The app is switched off', params: ['appId'] },
  'app.pool.required': { status: 400, title: 'The first app needs a pool for the data of every app' },
  'app.pool.fixed': { status: 409, title: 'Every app keeps its data on the app pool', params: ['pool'] },
  'app.uid.exhausted': { status: 507, title: 'Every account number for apps has been given out' },
  'app.permission.not_requested': { status: 400, title: 'The app does not ask for this permission', params: ['permission'] },
  'app.storage.not_found': { status: 404, title: 'The app asks for no storage of this id', params: ['storageId'] },
  'app.storage.not_mapped': { status: 409, title: 'No folder is mapped to this storage of the app', params: ['storageId'] },
  'app.storage.read_only': { status: 403, title: 'The app may only read this storage', params: ['storageId'] },
  'app.storage.no_access': { status: 403, title: 'You have no access to the share of this storage', params: ['storageId'] },
  'app.mapping.invalid': { status: 400, title: 'The storage request does not allow this mapping', params: ['reason'], reasons: ['readOnlyRequest'] },
  'app.token.invalid': { status: 401, title: 'The app token is missing, expired or no longer valid' },
  'app.token.limit': { status: 429, title: 'Too many app tokens are live: they expire within 5 minutes' },
  'app.backend.unavailable': { status: 503, title: 'The app’s backend is not running', params: ['appId'] },
  'app.quota.below_used': { status: 409, title: 'The app’s volume already holds more than this quota', params: ['appId', 'usedBytes'] },
  'app.backend.missing': { status: 409, title: 'The app has no backend', params: ['appId'] },
});

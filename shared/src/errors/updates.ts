import { defineErrors } from './catalog-entry.ts';

/** Updates of the box (spec 4.14, `system/updates`). */
export const updatesErrors = defineErrors({
  'system.updates.not_applicable': {
    status: 409,
    title: 'Updates do not apply on this machine',
    params: ['reason'],
    reasons: ['development', 'notPackaged', 'dataInSystem'],
  },
  'system.updates.busy': { status: 409, title: 'An update or a restore is already running', params: ['jobId'] },
  'system.updates.nothing': { status: 409, title: 'There is nothing to install: no newer version and no distribution updates chosen' },
  'system.update.not_found': { status: 404, title: 'There is no such update: check again or upload the file' },
  'system.update.invalid': { status: 400, title: 'The file is not an update bundle', params: ['reason'] },
  'system.update.unsigned': {
    status: 422,
    title: 'The update is not signed by a trusted key',
    params: ['reason'],
    reasons: ['missing', 'malformed', 'unknown_key', 'invalid'],
  },
  'system.update.architecture': { status: 422, title: "The update is for another architecture than this box's", params: ['architecture', 'box'] },
  'system.update.not_newer': { status: 422, title: 'The update is not newer than the installed version', params: ['version', 'installed'] },
  'system.update.hash_mismatch': { status: 422, title: 'The package does not match the hash its signed index names', params: ['file'] },
  'system.channel.unreachable': { status: 502, title: "The update channel's index could not be read", params: ['channel'] },
  'system.updates.data_in_system': {
    status: 409,
    title: "The service's data directory lies on a system dataset, which returning to a snapshot would take back too: make it a dataset of its own first",
    params: ['dataDir', 'dataset'],
  },
  'system.distribution.failed': { status: 502, title: "apt could not read the distribution's package lists" },
  'system.update.failed': {
    status: 500,
    title: 'An update step failed; the system datasets returned to the snapshot taken before where there is one',
    params: ['step', 'returned'],
  },
  'system.snapshot.not_found': { status: 404, title: 'There is no such update snapshot on the system datasets', params: ['name'] },
});

import { defineErrors } from './catalog-entry.ts';

/** Codes of disks, pools, plans, snapshots, schedules and alerts (`storage.*`). */
export const storageErrors = defineErrors({
  'storage.capability.unsupported': { status: 409, title: 'The running ZFS cannot do this', params: ['feature'] },
  'storage.pool.not_found': { status: 404, title: 'There is no such pool', params: ['pool'] },
  'storage.pool.exists': { status: 409, title: 'A pool with this name already exists', params: ['pool'] },
  'storage.pool.not_importable': { status: 409, title: 'The import scan finds no importable pool of this name', params: ['pool'] },
  'storage.layout.invalid': { status: 400, title: 'The layout needs a different number of disks', params: ['layout', 'minDisks'] },
  'storage.disk.not_found': { status: 400, title: 'There is no such disk', params: ['disk'] },
  'storage.disk.refused': { status: 409, title: 'The disk guard refuses this disk', params: ['disk', 'reasons'] },
  'storage.plan.not_found': { status: 404, title: 'There is no such plan', params: ['planId'] },
  'storage.plan.expired': { status: 410, title: 'The plan expired; preview it again', params: ['planId'] },
  'storage.plan.already_run': { status: 409, title: 'The plan has already run', params: ['planId'] },
  'storage.plan.stale': { status: 409, title: 'A disk of the plan changed since the preview; preview it again', params: ['disk', 'detail'] },
  'storage.command.failed': { status: 500, title: 'A command of the plan failed; the rest did not run', params: ['command', 'exitCode', 'output'] },
  'storage.scrub.not_running': { status: 409, title: 'No scrub is running on this pool', params: ['pool'] },
  'storage.dataset.not_found': { status: 404, title: 'There is no such dataset', params: ['dataset'] },
  'storage.snapshot.not_found': { status: 404, title: 'There is no such snapshot', params: ['snapshot'] },
  'storage.snapshot.not_held': { status: 409, title: 'The snapshot has no hold named service', params: ['snapshot'] },
  'storage.snapshot.already_held': { status: 409, title: 'The snapshot already has the hold named service', params: ['snapshot'] },
  'storage.apply.disabled': {
    status: 409,
    title: 'This machine only logs storage changes (development mode): a plan whose later steps need their result cannot run',
    params: ['kind'],
  },
  'storage.alert.not_found': { status: 404, title: 'There is no such current alert', params: ['key'] },
});

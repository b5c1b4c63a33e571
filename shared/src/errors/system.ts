import { defineErrors } from './catalog-entry.ts';

/** Codes of the System area (`system.*`). */
export const systemErrors = defineErrors({
  'system.zone.unknown': { status: 400, title: "The time zone is not in the box's time zone database", params: ['timeZone'] },
  'system.power.pending': { status: 409, title: 'A restart or shut-down is already under way', params: ['action', 'at'] },
});

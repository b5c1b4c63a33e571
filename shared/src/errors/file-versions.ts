import { defineErrors } from './catalog-entry.ts';

/** Codes of earlier file versions from snapshots. */
export const fileVersionErrors = defineErrors({
  'fs.version.not_found': { status: 404, title: 'The entry has no such version', params: ['version'] },
});

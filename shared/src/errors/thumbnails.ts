import { defineErrors } from './catalog-entry.ts';

/** Codes of thumbnails (part of the files area, hence `fs.*`). */
export const thumbnailErrors = defineErrors({
  'fs.thumbnail.not_found': { status: 404, title: 'There is no thumbnail of this version of the file yet', params: ['path'] },
});

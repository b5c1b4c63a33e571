import { defineErrors } from './catalog-entry.ts';

/** Codes of shares and files (`fs.*`). */
export const filesErrors = defineErrors({
  'fs.share.not_found': { status: 404, title: 'There is no such share, or you may not use it', params: ['shareId'] },
  'fs.share.read_only': { status: 403, title: 'You may only read this share', params: ['shareId'] },
  'fs.share.folder_dev_only': { status: 403, title: 'Host folders can be registered as shares only on a development machine' },
  'fs.share.folder_invalid': {
    status: 400,
    title: 'The host folder cannot be a share',
    params: ['reason'],
    reasons: ['notAbsolute', 'missing', 'notFolder', 'recycleBin', 'system'],
  },
  'fs.share.folder_overlaps': { status: 409, title: 'The host folder overlaps another share or the data directory', params: ['shareId'] },
  'fs.share.name_taken': { status: 409, title: 'Another share already has this name', params: ['name'] },
  'fs.share.no_dataset': { status: 409, title: 'This share is a plain folder without a dataset, so it has no restore points' },
  'fs.grant.subject_not_found': { status: 400, title: 'A grant names a user or group that does not exist', params: ['subjectType', 'subjectId'] },
  'fs.path.invalid': {
    status: 400,
    title: 'The path is not a valid path inside a share',
    params: ['reason'],
    reasons: ['emptySegment', 'dotSegment', 'nul', 'backslash', 'separator', 'tooLong', 'absolute', 'shareRoot', 'topic'],
  },
  'fs.path.reserved': { status: 400, title: 'The name is reserved for the box itself' },
  'fs.path.outside_share': { status: 403, title: 'The path leads outside the share through a symbolic link' },
  'fs.entry.not_found': { status: 404, title: 'There is no such file or folder' },
  'fs.entry.exists': { status: 409, title: 'A file or folder with this name already exists', params: ['name'] },
  'fs.entry.not_folder': { status: 409, title: 'The entry is not a folder' },
  'fs.entry.not_file': { status: 409, title: 'The entry is not a file' },
  'fs.entry.is_folder': { status: 409, title: 'A folder cannot be replaced by a file' },
  'fs.entry.forbidden': { status: 403, title: 'The file system of the share does not let you reach this entry' },
  'fs.range.not_satisfiable': { status: 416, title: 'The requested byte range lies outside the file', params: ['size'] },
  'fs.cursor.invalid': { status: 400, title: 'The cursor does not belong to this listing' },
  'fs.upload.incomplete': { status: 400, title: 'The upload ended before its body was complete' },
  // Out of space or over quota: a state of the share, not a fault of the client. needed is null when unknown (a chunked body).
  'fs.space.insufficient': { status: 507, title: 'There is not enough space on the share', params: ['share', 'needed', 'free'] },
});

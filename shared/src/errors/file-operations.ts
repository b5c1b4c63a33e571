import { defineErrors } from './catalog-entry.ts';

/** Codes of file operations and recycle bins (`fs.*`, beside the files area's own). */
export const fileOperationErrors = defineErrors({
  'fs.operation.into_itself': { status: 409, title: 'A folder cannot be copied or moved into itself', params: ['path'] },
  'fs.trash.item_not_found': { status: 404, title: 'The recycle bin of this share holds no such item', params: ['ids'] },
  'fs.trash.unavailable': {
    status: 409,
    title: "The recycle bin of this share cannot be used: it is not on the same file system as the share, or its folder is not the box's own",
    params: ['reason'],
    reasons: ['notOwnFolder', 'otherDevice'],
  },
});

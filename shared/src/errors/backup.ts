import { defineErrors } from './catalog-entry.ts';

/** Configuration backup, inspect and restore (spec 4.14). */
export const backupErrors = defineErrors({
  'backup.file.not_backup': { status: 400, title: 'The file is not a backup of this product' },
  'backup.file.version_unsupported': { status: 400, title: 'The backup was written in a format version this box cannot read', params: ['version'] },
  'backup.file.parameters_refused': { status: 400, title: "The backup's key derivation parameters are beyond what a box accepts" },
  'backup.file.damaged': { status: 400, title: 'The backup is damaged: it was cut short or changed after it was written', params: ['part'] },
  'backup.file.too_large': { status: 413, title: 'The backup or its content is larger than a configuration can be', params: ['maxBytes'] },
  'backup.password.wrong': { status: 400, title: 'The password does not open this backup' },
  'backup.part.invalid': { status: 400, title: 'A part of the backup does not hold what that part must', params: ['part'] },
  'backup.ssh.key_invalid': {
    status: 400,
    title: 'An SSH host key of the backup does not read as a key, or does not match its public key',
    params: ['file'],
  },
  'backup.inspected.not_found': {
    status: 404,
    title: 'There is no inspected backup to restore: inspect it again (it is kept 15 minutes, for the administrator who inspected it)',
    params: ['backupId'],
  },
  'backup.restore.running': { status: 409, title: 'A restore runs already: the daemon restarts after it' },
  'backup.share.folder_refused': {
    status: 400,
    title: "A share of the backup has a folder where this box makes no share (the system's folders, its data, outside its pools)",
    params: ['share', 'reason'],
  },
  'backup.account.reserved': {
    status: 400,
    title: 'A user or group of the backup has a name that belongs to the system',
    params: ['kind', 'name'],
  },
  'backup.group.built_in': {
    status: 400,
    title: "The backup's built-in groups are not this box's",
    params: ['name'],
  },
  'backup.part.not_in_backup': { status: 400, title: 'A chosen part is not in the backup', params: ['parts'] },
});

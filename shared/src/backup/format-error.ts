/** Why a file is not a readable backup; the codes are those of the error catalog (shared/src/errors/backup.ts). */
export type BackupFormatCode =
  | 'backup.file.not_backup'
  | 'backup.file.version_unsupported'
  | 'backup.file.parameters_refused'
  | 'backup.file.damaged'
  | 'backup.file.too_large'
  | 'backup.password.wrong';

/** Thrown by the reader; the daemon turns it into a problem of the same code, the console into a message. */
export class BackupFormatError extends Error {
  constructor(
    readonly code: BackupFormatCode,
    readonly params: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'BackupFormatError';
  }
}

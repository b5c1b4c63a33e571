import type { BackupFormatCode } from '../../../shared/src/backup/backup-file.ts';
import type { BridgeProblem } from '../bridge.ts';

/** Codes of the console's own failures; the pages translate them (renderer i18n `error.<code>`). */
export type ConsoleErrorCode =
  | 'console.request.invalid'
  | 'console.address.invalid'
  | 'console.box.not_found'
  | 'console.box.untrusted'
  | 'console.box.unreachable'
  | 'console.root.invalid'
  | 'console.root.changed_meanwhile'
  | 'console.root.unconstrained'
  | 'console.installer.refused'
  | 'console.installer.not_claimed'
  | 'console.installer.not_confirmed'
  | 'console.installer.key_changed'
  | 'console.installer.insecure'
  | 'console.backup.password_missing'
  | BackupFormatCode;

/** A failure the bridge hands to a page as `{ code, params }`; backup format errors travel the same way. */
export class ConsoleError extends Error {
  constructor(
    readonly code: ConsoleErrorCode,
    readonly params: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'ConsoleError';
  }

  toProblem(): BridgeProblem {
    return { code: this.code, params: this.params };
  }
}

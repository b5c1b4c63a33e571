import { ProblemError } from '../../core/problem-error.ts';
import { SshHostKeys, type SshHostKey } from '../../host/ssh-host-keys.ts';
import type { BackupPart } from '../backup-part.ts';

/**
 * The box's SSH host keys (the ssh part of a backup); empty in development mode. sshd reads its
 * host keys only when it starts or reloads: `reload` makes it present the restored ones at once.
 */
export function sshBackupPart(keys: SshHostKeys, reload: () => Promise<void>): BackupPart<SshHostKey[]> {
  return {
    name: 'ssh',
    export: () => keys.read(),
    async inspect(raw) {
      const ok =
        Array.isArray(raw) &&
        raw.every(
          (k: Partial<SshHostKey>) =>
            typeof k === 'object' &&
            k !== null &&
            typeof k.name === 'string' &&
            SshHostKeys.isName(k.name) &&
            typeof k.privateKey === 'string' &&
            k.privateKey.startsWith('-----BEGIN ') &&
            k.privateKey.length < 16_384 &&
            typeof k.publicKey === 'string' &&
            /^[a-z0-9-]+ [A-Za-z0-9+/=]+( .*)?\n?$/.test(k.publicKey),
        );
      if (!ok) throw new ProblemError('backup.part.invalid', { part: 'ssh' }, { detail: 'an SSH host key is malformed' });
      // Parsed here, before a restore can be asked for: the restore only takes inspected backups.
      for (const key of raw as SshHostKey[]) if (!(await keys.readable(key))) throw new ProblemError('backup.ssh.key_invalid', { file: key.name });
      return { data: raw as SshHostKey[], counts: { hostKeys: raw.length } };
    },
    // Files, not rows: written once the rows committed.
    restore: async () => undefined,
    async apply(data) {
      await keys.write(data);
      await reload();
    },
  };
}

import type { Sequelize, Transaction } from 'sequelize';
import { accountName } from '../../../../../shared/src/api/identity/users.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { AccountSecrets, HostSecret } from '../../../host/account-secrets.ts';
import type { SystemAccounts } from '../../../host/accounts.ts';
import type { BackupPart } from '../../backup-part.ts';
import { checkRows, readRows, replaceRows, syncRows, type Row } from '../../backup-rows.ts';
import { assertRestorableName, uidRange } from './restorable-names.ts';

export interface UsersBackup {
  users: Row[];
  /** TOTP secrets opened: the target box seals them under its own key. */
  totp: Row[];
  recoveryCodes: Row[];
  /** The highest uid and gid ever given out; a restore never lowers them. */
  accountIds: Row[];
  /** System account and Samba password hashes (a box only; empty in development mode). */
  host: HostSecret[];
}

/** Opens and seals TOTP secrets (the auth area's TotpCipher): the file carries them open, the database sealed. */
export interface SecretSeal {
  seal(userId: number, secret: string): string;
  open(userId: number, stored: string): string | null;
}

export interface UsersBackupDeps {
  db: Sequelize;
  cipher: SecretSeal;
  secrets: AccountSecrets;
  /** Host accounts a restored name must not take over. */
  accounts: Pick<SystemAccounts, 'userId'>;
}

/** Users with their password hashes, second factors and uids (the users part of a backup). */
export function usersBackupPart(deps: UsersBackupDeps): BackupPart<UsersBackup> {
  const { db } = deps;
  // Names the box had before a restore and the backup lacks: their system accounts go once the rows committed.
  let removed: string[] = [];
  return {
    name: 'users',
    async export() {
      const users = await readRows(db, 'users');
      const totp = (await readRows(db, 'user_totp')).flatMap((row) => {
        const secret = deps.cipher.open(Number(row.user_id), String(row.secret));
        // A secret this box cannot open any more (lost key) is left out: its user enrols again.
        return secret === null ? [] : [{ ...row, secret }];
      });
      return {
        users,
        totp,
        recoveryCodes: await readRows(db, 'recovery_codes'),
        accountIds: await readRows(db, 'account_ids'),
        host: await deps.secrets.read(users.map((u) => String(u.username))),
      };
    },
    async inspect(raw) {
      const invalid = (detail: string) => new ProblemError('backup.part.invalid', { part: 'users' }, { detail });
      if (typeof raw !== 'object' || raw === null) throw invalid('not an object');
      const value = raw as Record<string, unknown>;
      const users = await checkRows(db, 'users', 'users', value.users);
      for (const u of users) {
        if (accountName().validate(u.username).error) throw invalid(`user name ${String(u.username)} is not an account name`);
        await assertRestorableName('user', String(u.username), uidRange, (name) => deps.accounts.userId(name));
        if (typeof u.uid !== 'number' || u.uid < uidRange.min || u.uid > uidRange.max) throw invalid(`uid of ${String(u.username)} is out of range`);
      }
      const ids = new Set(users.map((u) => u.id));
      const totp = await checkRows(db, 'users', 'user_totp', value.totp);
      const recoveryCodes = await checkRows(db, 'users', 'recovery_codes', value.recoveryCodes);
      if (![...totp, ...recoveryCodes].every((r) => ids.has(r.user_id ?? null))) throw invalid('a second factor of a user not in the backup');
      const accountIds = await checkRows(db, 'users', 'account_ids', value.accountIds);
      const host = checkHost(value.host, new Set(users.map((u) => String(u.username))), invalid);
      return {
        data: { users, totp, recoveryCodes, accountIds, host },
        counts: { users: users.length, administrators: users.filter((u) => u.admin === 1).length, secondFactors: totp.filter((t) => t.enabled === 1).length },
      };
    },
    async restore(data, transaction) {
      const kept = new Set(data.users.map((u) => u.username));
      removed = (await readRows(db, 'users', transaction)).map((u) => String(u.username)).filter((name) => !kept.has(name));
      await syncRows(db, 'users', data.users, transaction, { key: 'id', temporary: { username: "'~restore~' || id", uid: '-id' } });
      const sealed = data.totp.map((row) => ({ ...row, secret: deps.cipher.seal(Number(row.user_id), String(row.secret)) }));
      await replaceRows(db, 'user_totp', sealed, transaction);
      await replaceRows(db, 'recovery_codes', data.recoveryCodes, transaction);
      await raiseAccountIds(db, data.accountIds, transaction);
    },
    apply: (data) =>
      deps.secrets.restore(
        data.users.map((u) => ({ username: String(u.username), uid: Number(u.uid), displayName: String(u.display_name), active: u.active === 1 })),
        data.host,
        removed,
      ),
  };
}

function checkHost(raw: unknown, names: Set<string>, invalid: (detail: string) => Error): HostSecret[] {
  if (!Array.isArray(raw)) throw invalid('host is not a list');
  for (const s of raw as Partial<HostSecret>[]) {
    const ok =
      typeof s === 'object' &&
      s !== null &&
      typeof s.username === 'string' &&
      names.has(s.username) &&
      (s.shadowHash === null || (typeof s.shadowHash === 'string' && /^[^:\n]{1,512}$/.test(s.shadowHash))) &&
      (s.ntHash === null || (typeof s.ntHash === 'string' && /^[0-9A-F]{32}$/.test(s.ntHash)));
    if (!ok) throw invalid('a host password entry is malformed');
  }
  return raw as HostSecret[];
}

/** Ids given out on either box stay given out: the counters only ever rise. */
async function raiseAccountIds(db: Sequelize, rows: readonly Row[], transaction: Transaction): Promise<void> {
  for (const row of rows)
    await db.query('UPDATE account_ids SET last = MAX(last, ?) WHERE kind = ?', { replacements: [Number(row.last), String(row.kind)], transaction });
  await db.query("UPDATE account_ids SET last = MAX(last, (SELECT COALESCE(MAX(uid), 0) FROM users)) WHERE kind = 'uid'", { transaction });
}

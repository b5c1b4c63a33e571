import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { backupPartNames } from '../../../../shared/src/api/backup.ts';
import type { Mode } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { product } from '../../core/product.ts';
import { AccountSecrets } from '../../host/account-secrets.ts';
import { SystemAccounts } from '../../host/accounts.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { boxDeployment } from '../../host/file-services/box-deployment.ts';
import { SshHostKeys } from '../../host/ssh-host-keys.ts';
import { systemPool } from '../../host/installer/install-plan.ts';
import { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea, type Area } from '../area.ts';
import { TotpCipher } from '../identity/auth/totp-cipher.ts';
import { permissionsBackupPart } from '../identity/permissions/permissions.backup.ts';
import { sharesBackupPart, sharesWithoutDataset, type BoxDatasets, type SharesBackup } from '../shares/shares.backup.ts';
import { groupsBackupPart } from '../identity/users/groups.backup.ts';
import { usersBackupPart } from '../identity/users/users.backup.ts';
import type { BackupPart } from './backup-part.ts';
import { backupHandlers } from './backup.routes.ts';
import { BackupService } from './backup.service.ts';
import { sshBackupPart } from './ssh.backup.ts';

export interface BackupAreaOptions {
  /** Host effects of a restore run (system accounts, Samba, SSH host keys): on a box, or in root system tests. */
  applyHost: boolean;
  /** Folder of the SSH host keys: /etc/ssh on a box, a test folder in system tests, none in development mode. */
  sshDir: string | null;
  /** smb.conf whose passdb holds the SMB passwords; null is Samba's default. */
  smbConf?: string | null;
  /** Makes sshd read the restored host keys (on a box `systemctl reload ssh`); null where no sshd serves them. */
  sshReload?: readonly string[] | null;
}

export interface BackupAreaDeps {
  db: Sequelize;
  clock: Clock;
  logger: Logger;
  config: { mode: Mode; dataDir: string };
  identity: { rightHolders(right: string): Promise<string[]> };
  /** File services re-apply Samba, SFTP and ACLs. */
  fileServicesChanged: () => void;
  /** The other areas, whose contracts carry the parts they built themselves (storage, region, tls, apps, proxy, store, ...): each knows its own rows and host effects. */
  areas: readonly Area[];
  /** Restoring users ends every session. */
  sessionStore: { endAll(): Promise<number> };
  /**
   * `restart`: see DaemonOptions.restart (without one, a restore only logs that nothing restarts the daemon).
   * `backup`: on a box host effects are on and SSH host keys in /etc/ssh; in development mode neither, unless a test says so.
   */
  options: { restart?: () => void; backup?: Partial<BackupAreaOptions> };
}

/** Builds the backup area: every area's backup part, and the service that writes, inspects and restores them. */
export function createBackupArea(deps: BackupAreaDeps) {
  const { db, logger } = deps;
  const box = deps.config.mode === 'box';
  const options: BackupAreaOptions = {
    applyHost: box,
    sshDir: box ? '/etc/ssh' : null,
    sshReload: box ? boxDeployment.sftp.reload : null,
    ...deps.options.backup,
  };
  const runner = new CommandRunner(logger, options.applyHost);
  const accounts = new SystemAccounts(runner, { smbConf: options.smbConf ?? null });
  const parts: BackupPart[] = [
    usersBackupPart({
      db,
      // The same key file the auth area seals with: secrets leave opened and come back sealed.
      cipher: TotpCipher.fromKeyFile(path.join(deps.config.dataDir, 'totp-key')),
      secrets: new AccountSecrets(runner, { smbConf: options.smbConf ?? null }),
      accounts,
    }),
    groupsBackupPart({ db, accounts }),
    permissionsBackupPart({ db, accounts, rightHolders: (right) => deps.identity.rightHolders(right) }),
    sharesBackupPart({
      db,
      changed: deps.fileServicesChanged,
      mode: deps.config.mode,
      dataDir: deps.config.dataDir,
      datasets: boxDatasets(new ZfsDriver(runner)),
    }),
    sshBackupPart(new SshHostKeys({ dir: options.sshDir, logger, runner }), async () => void (options.sshReload && (await runner.run(options.sshReload)))),
    ...deps.areas.flatMap((area) => (area.backupPart ? [area.backupPart] : [])),
  ]
    // Written, inspected and restored in the order of backupPartNames, whoever built them.
    .sort((a, b) => backupPartNames.indexOf(a.name) - backupPartNames.indexOf(b.name)) as BackupPart[];
  const backup = new BackupService({
    db,
    parts,
    clock: deps.clock,
    logger,
    version: product.version,
    sharesWithoutDataset: (shares) => sharesWithoutDataset(shares as SharesBackup),
    signOutEverybody: async () => void (await deps.sessionStore.endAll()),
    restart: deps.options.restart ?? (() => logger.warn('a restore asked for a restart, and nothing restarts this daemon', { component: 'backup' })),
  });
  return defineArea({ name: 'backup', routes: [tableRoutes(api.backup, backupHandlers(backup))], backup });
}

/** This box's pools and datasets as zfs reports them (read on a box only: shares check them in box mode). */
function boxDatasets(zfs: ZfsDriver): BoxDatasets {
  return {
    sharePools: async () => (await zfs.listPools()).map((p) => p.name).filter((name) => name !== systemPool),
    mountpoint: async (dataset) => {
      const [found] = await zfs.objects(dataset, 0);
      const mountpoint = found?.name === dataset ? found.props.get('mountpoint') : undefined;
      return mountpoint?.startsWith('/') ? mountpoint : null;
    },
  };
}

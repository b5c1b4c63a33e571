import { lchown, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SmbSessions } from '../../../../shared/src/api/system/overview.ts';
import type { Logger } from '../../core/logger.ts';
import { CommandError, type CommandRunner } from '../command-runner.ts';
import { shareAcl } from './acl.ts';
import { AclKeeper } from './acl-keeper.ts';
import { aclAt, applyHolders, relativeTo } from './folder-holders.ts';
import type { FileServicesState, FileShare, ReservedNames } from './file-share.ts';
import { SftpChroots } from './sftp-chroots.ts';
import { ShareGroups } from './share-groups.ts';
import { smbConf, type SmbParameters } from './smb-conf.ts';
import { sftpMounts, sshdConf, type SftpDeployment } from './sshd-conf.ts';
import { readSmbSessions } from './smb-status.ts';
import { refusesAcls, setTreeAcl, setTreeModes, type TreeAclDeps } from './tree-acl.ts';

/** Where and how this machine runs Samba and sshd (the box's system services, or a test instance). */
export interface FileServicesDeployment {
  smb: {
    /** The smb.conf smbd reads. */
    confPath: string;
    globals: SmbParameters;
    /** Tells the running smbd to re-read its configuration. */
    reload: string[];
  };
  sftp: SftpDeployment & {
    /** The sshd_config fragment (included by the main configuration). */
    confPath: string;
    /** Checks the whole sshd configuration, the fragment included. */
    check: string[];
    reload: string[];
  };
  /** Names the system group of each share kept by group modes (`<prefix><share id>`, see ShareGroups). */
  shareGroupPrefix: string;
}

export interface FileServicesDeps {
  runner: CommandRunner;
  logger: Logger;
  deployment: FileServicesDeployment;
  reserved: ReservedNames;
  /** Shares with effective access and the protocol right holders, read at the start of each apply. */
  state(): Promise<FileServicesState>;
  /** Quiet time before a burst of changes is applied once; default 300 ms. */
  debounceMs?: number;
}

const component = 'file-services';

/**
 * Samba, sshd and disk ACLs made to follow the shares and grants. Changes come in bursts
 * (a grants editor saves, a user is deactivated), so apply() waits for a quiet moment and
 * runs one pass at a time from fresh state. Configurations are replaced by rename, so a
 * reader sees the old file or the new one, never half of one; one that fails its check is
 * never left in place. In development mode (a runner that does not apply) everything that
 * would be written or run goes to the log.
 */
export class FileServices {
  private timer: NodeJS.Timeout | null = null;
  private waiting: { resolve(): void; reject(err: unknown): void }[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly chroots: SftpChroots;
  /** Keeps what SFTP clients create to the share ACL, which internal-sftp cannot (see AclKeeper). */
  private readonly keeper: AclKeeper;
  private readonly groups: ShareGroups;
  /**
   * Shares whose file system refused ACLs, kept by group modes instead: their group and the folder
   * it was found for (a share moved elsewhere tries ACLs again).
   */
  private readonly groupModes = new Map<number, { gid: number; hostPath: string }>();
  /** What the last successful pass wrote, so an unchanged file is neither rewritten nor reloaded. */
  private readonly applied = { smb: null as string | null, sshd: null as string | null, acl: new Map<number, string>() };

  constructor(private readonly deps: FileServicesDeps) {
    this.chroots = new SftpChroots(deps.runner, deps.logger, deps.deployment.sftp.chrootBase);
    this.keeper = new AclKeeper({ logger: deps.logger, apply: deps.runner.apply, trashFolder: deps.reserved.trashFolder });
    this.groups = new ShareGroups(deps.runner, deps.deployment.shareGroupPrefix);
  }

  /** The open SMB sessions of the smbd this configures (Overview). */
  smbSessions(): Promise<SmbSessions> {
    return readSmbSessions(this.deps.runner, this.deps.deployment.smb.confPath);
  }

  /** Applies the current state after the quiet time; resolves when a pass that saw this call is done. */
  apply(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), this.deps.debounceMs ?? 300);
    });
  }

  /** For change hooks: apply() whose failure is logged (the next change tries again). */
  changed(): void {
    this.apply().catch(() => undefined);
  }

  /**
   * Entries renamed into a share from elsewhere (a move from another share, a restore from the
   * recycle bin) keep the ACL they had there; they get this share's, after any pass under way.
   */
  entriesArrived(shareId: number, fullPaths: readonly string[]): Promise<void> {
    this.chain = this.chain.then(async () => {
      // Never rejects: the chain carries every later pass too.
      try {
        const share = (await this.deps.state()).shares.find((s) => s.id === shareId);
        if (!share) return;
        // Only what lies inside the share, never the share root itself (the pass owns it).
        for (const entry of fullPaths.filter((p) => p.startsWith(`${share.hostPath}/`))) {
          // The ACL of where it landed: inside a folder an app holds, the app's entry too.
          const rel = relativeTo(share.hostPath, entry);
          const modes = this.groupModesOf(share);
          if (modes) await setTreeModes(this.treeAcl(), share.hostPath, rel, modes.gid);
          else {
            await setTreeAcl(this.treeAcl(), share.hostPath, rel, aclAt(share, rel));
            await applyHolders(this.treeAcl(), share, () => undefined, rel);
          }
        }
      } catch (err) {
        this.deps.logger.warn('ACLs of arrived entries not applied', { component, shareId, error: describe(err) });
      }
    });
    return this.chain;
  }

  /** Resolves when the passes under way and the entries seen so far are handled (tests). */
  async settled(): Promise<void> {
    await this.chain;
    await this.keeper.settled();
  }

  /** Waits for pending work; pending timers are flushed at once. */
  async close(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.flush();
    }
    await this.chain;
    this.keeper.close();
  }

  private flush(): void {
    this.timer = null;
    const waiting = this.waiting.splice(0);
    this.chain = this.chain.then(async () => {
      try {
        await this.pass();
        for (const w of waiting) w.resolve();
      } catch (err) {
        this.deps.logger.error('file services not applied', { component, error: describe(err) });
        for (const w of waiting) w.reject(err);
      }
    });
  }

  private async pass(): Promise<void> {
    const state = await this.deps.state();
    await this.applyAcls(state);
    // SMB forces its modes itself (smb-conf.ts); only SFTP needs the watch. Under group modes every
    // entry needs the share's group and modes, whoever made it (the Files app makes them as root).
    const kept = state.shares.map((s) => ({ share: s, modes: this.groupModesOf(s) })).filter(({ share, modes }) => share.sftp || modes);
    await this.keeper.keep(kept.map(({ share, modes }) => ({ id: share.id, hostPath: share.hostPath, access: shareAcl(share).access, gid: modes?.gid })));
    await this.applySmb(state);
    await this.applySftp(state);
  }

  private async applySmb(state: FileServicesState): Promise<void> {
    const { smb } = this.deps.deployment;
    const { text, skipped } = smbConf({ globals: smb.globals, reserved: this.deps.reserved, state });
    for (const s of skipped) this.deps.logger.warn('share left out of smb.conf', { component, ...s });
    if (text === this.applied.smb) return;
    await this.replaceFile(smb.confPath, text, async (candidate) => void (await this.deps.runner.run(['testparm', '-s', candidate], { timeoutMs: 30_000 })));
    await this.reload(smb.reload);
    this.applied.smb = text;
  }

  private async applySftp(state: FileServicesState): Promise<void> {
    const { sftp } = this.deps.deployment;
    const groupModeShares = new Set(state.shares.filter((s) => this.groupModesOf(s)).map((s) => s.id));
    await this.chroots.reconcile(sftpMounts(state, sftp.chrootBase, groupModeShares));
    const text = sshdConf(sftp);
    if (text === this.applied.sshd) return;
    const previous = this.deps.runner.apply ? await readFile(sftp.confPath, 'utf8').catch(() => null) : null;
    // The fragment is only checked as part of the whole configuration, so it is checked in
    // place and the previous one restored when the check fails.
    await this.replaceFile(sftp.confPath, text, null);
    try {
      await this.deps.runner.run(sftp.check, { timeoutMs: 30_000 });
    } catch (err) {
      if (previous === null) await unlink(sftp.confPath).catch(() => undefined);
      else await this.replaceFile(sftp.confPath, previous, null);
      throw err;
    }
    await this.reload(sftp.reload);
    this.applied.sshd = text;
  }

  private async applyAcls(state: FileServicesState): Promise<void> {
    for (const share of state.shares) {
      const acl = shareAcl(share);
      const key = `${share.hostPath}\n${acl.access}\n${acl.defaults}\n${JSON.stringify(share.folders ?? [])}`;
      if (this.applied.acl.get(share.id) === key) continue;
      // One share whose folder is gone or damaged must not keep Samba and sshd from following the others.
      try {
        if (this.groupModesOf(share) || (await refusesAcls(this.treeAcl(), share.hostPath))) await this.applyGroupModes(share);
        else {
          await setTreeAcl(this.treeAcl(), share.hostPath, '', acl);
          // Folder holders (apps' mappings) after the share-wide pass, which would wipe their entries.
          await applyHolders(this.treeAcl(), share, (folder) => this.deps.logger.warn('held folder not found', { component, shareId: share.id, folder }));
          this.groupModes.delete(share.id);
        }
        this.applied.acl.set(share.id, key);
      } catch (err) {
        this.deps.logger.warn('share ACLs not applied', { component, shareId: share.id, error: describe(err) });
      }
    }
    await this.removeGroupsOfGoneShares(new Set(state.shares.map((s) => s.id)));
  }

  /**
   * A file system without POSIX ACLs (zfs-fuse): the share's users go into the share's group, the
   * folder becomes root:<group> 2770 and every entry the group's (groupMode). The disk then lets
   * every user of the share write; a read grant stays read-only because Samba enforces its
   * `read list` and SFTP mounts the share read-only for them (sftpMounts), and Cellar's accounts
   * have no shell. What apps' folder holders would get cannot be said with one group: they get nothing.
   */
  private async applyGroupModes(share: FileShare): Promise<void> {
    const { gid, missing } = await this.groups.ensure(
      share.id,
      share.users.map((u) => u.username),
    );
    // A user without a system account reaches nothing over SMB or SFTP either (development machines).
    if (missing.length)
      this.deps.logger.warn('share users without a system account left out of the share group', {
        logCode: 'shares.usersWithoutAccount',
        component,
        shareId: share.id,
        missing,
      });
    await setTreeModes(this.treeAcl(), share.hostPath, '', gid);
    if (!this.groupModesOf(share)) {
      this.deps.logger.info('share access enforced by group modes: its file system has no POSIX ACLs', {
        logCode: 'shares.groupModes',
        component,
        shareId: share.id,
        group: this.groups.name(share.id),
      });
    }
    if (share.folders?.length) {
      this.deps.logger.warn('app folders in the share not given: its file system has no POSIX ACLs', {
        logCode: 'shares.appFoldersNotGiven',
        component,
        shareId: share.id,
        folders: share.folders.map((f) => f.path),
      });
    }
    this.groupModes.set(share.id, { gid, hostPath: share.hostPath });
  }

  /**
   * Deletes the groups of shares that are gone. Their folder (data kept) is given back to root's
   * group first, when this process knows it: a gid freed may be handed to the next share's group.
   */
  private async removeGroupsOfGoneShares(shareIds: ReadonlySet<number>): Promise<void> {
    for (const [id, { hostPath }] of this.groupModes) {
      if (shareIds.has(id)) continue;
      await lchown(hostPath, -1, 0).catch(() => undefined);
      this.groupModes.delete(id);
    }
    for (const name of await this.groups.removeOthers(shareIds))
      this.deps.logger.info('share group removed', { logCode: 'shares.groupRemoved', component, group: name });
  }

  private groupModesOf(share: Pick<FileShare, 'id' | 'hostPath'>): { gid: number } | null {
    const modes = this.groupModes.get(share.id);
    return modes && modes.hostPath === share.hostPath ? modes : null;
  }

  private treeAcl(): TreeAclDeps {
    return { runner: this.deps.runner, logger: this.deps.logger, trashFolder: this.deps.reserved.trashFolder };
  }

  /** Writes beside the target, checks the candidate (when a check is given), then renames over the target. */
  private async replaceFile(target: string, text: string, check: ((candidate: string) => Promise<void>) | null): Promise<void> {
    if (!this.deps.runner.apply) {
      // Whole generated files: for whoever debugs them, not for every development start.
      this.deps.logger.debug('would write', { component, file: target, content: text });
      return;
    }
    const candidate = path.join(path.dirname(target), `.${path.basename(target)}.cellar-new`);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await writeFile(candidate, text, { mode: 0o644, flush: true });
    try {
      if (check) await check(candidate);
      await rename(candidate, target);
    } catch (err) {
      await unlink(candidate).catch(() => undefined);
      throw err;
    }
  }

  /** A service that is not running has nothing to reload: it reads the new file when it starts. */
  private async reload(argv: string[]): Promise<void> {
    const result = await this.deps.runner.run(argv, { allowFailure: true, timeoutMs: 30_000 });
    if (result.exitCode !== 0) this.deps.logger.warn('reload failed', { component, argv, exitCode: result.exitCode, stderr: result.stderr.trim() });
  }
}

function describe(err: unknown): string {
  if (err instanceof CommandError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

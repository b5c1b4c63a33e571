import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Job } from '../../../../../shared/src/api/jobs/jobs.ts';
import { createLogger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { TopicsHub } from '../../../core/topics/topics-hub.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrate } from '../../../db/migrate.ts';
import type { ZfsDriver } from '../../../host/zfs/zfs-driver.ts';
import type { ZfsObject } from '../../../host/zfs/zfs-get.ts';
import { SqliteSessionStore } from '../auth/session-store.ts';
import { initSessionModel } from '../auth/session.model.ts';
import { initHomeModels, type HomeModels } from '../../storage/homes.model.ts';
import type { HomeShares } from '../../storage/homes-deps.ts';
import { HomesService } from '../../storage/homes.service.ts';
import { createIdentityArea } from '../identity.area.ts';
import { initUserModel } from './user.model.ts';

/**
 * ZFS as the homes service sees it, in memory. The real thing (zfs-fuse) runs in the system tests; here
 * chosen commands fail the way zfs does (exit 1, its message on stderr) after the user row is gone,
 * which a real pool does not do on demand.
 */
class ZfsStandIn {
  readonly datasets = new Set<string>();
  failing: (argv: readonly string[]) => string | null = () => null;
  async listPools() {
    return [];
  }
  async exists(name: string): Promise<boolean> {
    return this.datasets.has(name);
  }
  async objects(name: string): Promise<ZfsObject[]> {
    return this.datasets.has(name) ? [{ name, props: new Map([['mountpoint', `/mnt/${name}`]]) }] : [];
  }
  async run(argv: readonly string[]) {
    const stderr = this.failing(argv);
    if (stderr) return { stdout: '', stderr, exitCode: 1 };
    const last = argv.at(-1)!;
    if (argv[1] === 'rename') {
      this.datasets.delete(argv[2]!);
      this.datasets.add(last);
    } else if (argv[1] === 'create') this.datasets.add(last);
    else if (argv[1] === 'destroy') this.datasets.delete(last);
    return { stdout: '', stderr: '', exitCode: 0 };
  }
}

/** The shares area as homes use it: real rows of the shares table (homes reference them), the rest in memory. */
class SharesStandIn implements HomeShares {
  readonly shares = new Map<number, { name: string; dataset: string; hostPath: string }>();
  relocateFailures = 0;
  constructor(private readonly db: Sequelize) {}
  async register(share: { name: string; dataset: string; hostPath: string }) {
    await this.db.query('INSERT INTO shares (name, host_path, dataset, created_at) VALUES (?, ?, ?, ?)', {
      replacements: [share.name, share.hostPath, share.dataset, new Date().toISOString()],
    });
    const [rows] = (await this.db.query('SELECT id FROM shares WHERE name = ?', { replacements: [share.name] })) as [{ id: number }[], unknown];
    this.shares.set(rows[0]!.id, share);
    return rows[0]!.id;
  }
  async remove(shareId: number) {
    await this.db.query('DELETE FROM shares WHERE id = ?', { replacements: [shareId] });
    this.shares.delete(shareId);
  }
  async grantOwner() {}
  async relocate(shareId: number, fields: { name?: string; dataset?: string; hostPath?: string }) {
    if (this.relocateFailures-- > 0) throw new Error('database is locked');
    this.shares.set(shareId, { ...this.shares.get(shareId)!, ...fields });
  }
  async hostPath(shareId: number) {
    return this.shares.get(shareId)?.hostPath ?? null;
  }
  // Releasing a home (the only caller) is not part of user deletion.
  entriesArrived() {}
}

describe('user deletion with a home: checks first, a failed home step leaves a whole home and says where', () => {
  let dir: string;
  let db: Sequelize;
  let zfs: ZfsStandIn;
  let shares: SharesStandIn;
  let homeModels: HomeModels;
  let copyFails: boolean;
  let enqueueFails: boolean;
  let identity: Awaited<ReturnType<typeof createIdentityArea>>;
  let actor: Principal;
  let targetShareId: number;
  let targetFolder: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-home-removal-'));
    targetFolder = mkdtempSync(path.join(dir, 'target-'));
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    db = await openDatabase(path.join(dir, 'db.sqlite'), logger);
    await migrate(db, logger);
    zfs = new ZfsStandIn();
    shares = new SharesStandIn(db);
    homeModels = initHomeModels(db);
    const homes = new HomesService({
      models: homeModels,
      zfs: zfs as unknown as ZfsDriver, // the stand-in has every method the homes service calls
      shares,
      logger,
      enqueue: async (kind, params) => {
        if (enqueueFails) throw new Error('the job engine is stopping');
        return { id: 1, kind, params, state: 'queued' } as unknown as Job; // only passed through here
      },
      copy: async () => {
        if (copyFails) throw new Error('cp: error writing: No space left on device');
      },
    });
    const sessionStore = new SqliteSessionStore(initSessionModel(db), 60_000);
    identity = await createIdentityArea({
      db,
      logger,
      userRows: initUserModel(db),
      sessionStore,
      topics: new TopicsHub({ logger, sessionAlive: async () => true }),
      dataDir: dir,
      applyAccounts: false,
      initialAdmin: { password: 'initial-admin-password-1' },
      homes: () => homes,
    });
    const admin = (await identity.users.findByName('admin'))!;
    actor = { ...(await identity.users.principal(admin.id))!, sessionId: 'test' };
    targetShareId = await shares.register({ name: 'Target', dataset: 'tank/target', hostPath: targetFolder });
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    zfs.failing = () => null;
    copyFails = false;
    enqueueFails = false;
    shares.relocateFailures = 0;
  });

  let n = 0;
  /** A user with a home dataset `tank/homes/<name>` and its share, as the homes service makes them. */
  async function userWithHome() {
    n += 1;
    const user = await identity.users.create({ username: `hanna${n}`, password: 'Hanna-password-1' });
    const dataset = `tank/homes/${user.username}`;
    zfs.datasets.add(dataset);
    const shareId = await shares.register({ name: user.username, dataset, hostPath: `/mnt/${dataset}` });
    await homeModels.homes.create({ shareId, userId: user.id, username: user.username, uid: user.uid, folder: user.username, dataset, quotaBytes: null });
    return { ...user, dataset, shareId, kept: `${user.username}.deleted-${user.uid}` };
  }

  async function failure(promise: Promise<unknown>): Promise<ProblemError> {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProblemError);
    return err as ProblemError;
  }

  it('refuses before anything changes: a taken deleted-home name, a missing dataset, an unwritable move target', async () => {
    const u = await userWithHome();
    zfs.datasets.add(`tank/homes/${u.kept}`);
    expect((await failure(identity.users.remove(actor, u.id, { home: 'keep' }))).code).to.equal('users.home.kept_taken');
    zfs.datasets.delete(`tank/homes/${u.kept}`);
    const notWritable = await shares.register({ name: 'Gone', dataset: 'tank/gone', hostPath: path.join(dir, 'no-such-folder') });
    const moved = await failure(identity.users.remove(actor, u.id, { home: 'move', shareId: notWritable }));
    expect([moved.code, moved.params]).to.deep.equal(['users.home.target_unwritable', { shareId: notWritable }]);
    expect((await failure(identity.users.remove(actor, u.id, { home: 'move', shareId: 999 }))).code).to.equal('fs.share.not_found');
    zfs.datasets.delete(u.dataset);
    expect((await failure(identity.users.remove(actor, u.id, { home: 'keep' }))).code).to.equal('storage.dataset.not_found');
    expect(await identity.users.findById(u.id), 'the user is still there').to.not.equal(null);
    expect((await homeModels.homes.findByPk(u.shareId))?.userId).to.equal(u.id);
  });

  it('keep: a failed rename and copy leave the home whole under its old name, the partial copy removed', async () => {
    const u = await userWithHome();
    zfs.failing = (argv) => (argv[1] === 'rename' ? `cannot rename '${u.dataset}': operation not supported` : null);
    copyFails = true;
    const p = await failure(identity.users.remove(actor, u.id, { home: 'keep' }));
    expect(p.code).to.equal('users.home.dispose_failed');
    expect(p.status).to.equal(500);
    expect(p.params).to.deep.include({
      userId: u.id,
      username: u.username,
      userDeleted: true,
      home: 'keep',
      homeState: 'unchanged',
      folder: u.username,
      shareId: u.shareId,
    });
    expect(await identity.users.findById(u.id), 'the user is deleted').to.equal(null);
    expect(zfs.datasets.has(u.dataset)).to.equal(true);
    expect(zfs.datasets.has(`tank/homes/${u.kept}`), 'no half copy').to.equal(false);
    // Detached from the deleted user, so the homes operations (delete, release) can take it.
    expect((await homeModels.homes.findByPk(u.shareId))?.toJSON()).to.include({ userId: null, folder: u.username, dataset: u.dataset });
  });

  it('keep: a rename that went through with its bookkeeping failing ends as the kept home', async () => {
    const u = await userWithHome();
    shares.relocateFailures = 1;
    const p = await failure(identity.users.remove(actor, u.id, { home: 'keep' }));
    expect(p.params).to.deep.include({ userDeleted: true, homeState: 'kept', folder: u.kept, cause: 'database is locked' });
    expect((await homeModels.homes.findByPk(u.shareId))?.toJSON()).to.include({ userId: null, folder: u.kept, dataset: `tank/homes/${u.kept}` });
    expect(shares.shares.get(u.shareId)).to.deep.equal({ name: u.kept, dataset: `tank/homes/${u.kept}`, hostPath: `/mnt/tank/homes/${u.kept}/files` });
  });

  it('delete: a failed zfs destroy leaves the home unchanged and says so with the command that failed', async () => {
    const u = await userWithHome();
    zfs.failing = (argv) => (argv[1] === 'destroy' ? `cannot destroy '${u.dataset}': permission denied` : null);
    const p = await failure(identity.users.remove(actor, u.id, { home: 'delete', confirm: u.username }));
    expect(p.params).to.deep.include({ userDeleted: true, home: 'delete', homeState: 'unchanged', folder: u.username, cause: 'storage.command.failed' });
    expect((p.params?.causeParams as { command: string[] }).command).to.deep.equal(['zfs', 'destroy', '-f', '-r', u.dataset]);
    expect(zfs.datasets.has(u.dataset)).to.equal(true);
    expect((await homeModels.homes.findByPk(u.shareId))?.userId).to.equal(null);
  });

  it('move: the home is kept when the move job cannot be queued, and the answer says so', async () => {
    const u = await userWithHome();
    enqueueFails = true;
    const p = await failure(identity.users.remove(actor, u.id, { home: 'move', shareId: targetShareId }));
    expect(p.params).to.deep.include({ userDeleted: true, home: 'move', homeState: 'kept', folder: u.kept });
    expect(zfs.datasets.has(`tank/homes/${u.kept}`)).to.equal(true);
  });

  it('succeeds as before when nothing fails: keep answers the kept folder, delete removes dataset, share and row', async () => {
    const kept = await userWithHome();
    expect(await identity.users.remove(actor, kept.id, { home: 'keep' })).to.deep.equal({
      userId: kept.id,
      username: kept.username,
      home: 'keep',
      keptHome: kept.kept,
      job: null,
    });
    const gone = await userWithHome();
    expect((await identity.users.remove(actor, gone.id, { home: 'delete', confirm: gone.username })).keptHome).to.equal(null);
    expect(zfs.datasets.has(gone.dataset)).to.equal(false);
    expect(shares.shares.has(gone.shareId)).to.equal(false);
    expect(await homeModels.homes.findByPk(gone.shareId)).to.equal(null);
  });
});

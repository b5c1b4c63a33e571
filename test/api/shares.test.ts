import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { ShareAccessResolver } from '../../daemon/src/areas/shares/share-access.ts';
import { initShareModels } from '../../daemon/src/areas/shares/share.model.ts';
import { SharesService } from '../../daemon/src/areas/shares/shares.service.ts';
import { ProblemError } from '../../daemon/src/core/problem-error.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertGroup, makeShare, setActive, tempFolder, removeTempFolders } from '../helpers/shares.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

describe('shares', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let anna: TestClient;
  let annaId: number;
  let bertId: number;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    annaId = await insertUser(box, 'anna', 'anna-password-1');
    bertId = await insertUser(box, 'bert', 'bert-password-1');
    anna = await box.signIn('anna', 'anna-password-1');
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  describe('registering host folders', () => {
    it('registers an existing folder; administrators see it with its real host path', async () => {
      const { share, folder } = await makeShare(admin, 'Photos');
      expect(share).to.include({ name: 'Photos', kind: 'folder', access: 'readWrite', hostPath: folder });
      expect(share.availableBytes).to.be.a('number');
      const listed = await admin.api.shares.list();
      expect(listed.find((s) => s.id === share.id)).to.deep.include({ hostPath: folder });
    });

    it('offers a new share over SMB and SFTP unless the client turns them off', async () => {
      const { share } = await makeShare(admin, 'Offered');
      expect((await admin.api.shares.details()).find((d) => d.id === share.id)).to.include({ smbEnabled: true, sftpEnabled: true, smbEncrypt: false });
      const created = await admin.api.shares.create({ body: { name: 'Offered nowhere', hostPath: tempFolder(), smbEnabled: false, sftpEnabled: false } });
      expect((await admin.api.shares.details()).find((d) => d.id === created.id)).to.include({ smbEnabled: false, sftpEnabled: false });
      const smbOnly = await admin.api.shares.create({ body: { name: 'SMB only', hostPath: tempFolder(), sftpEnabled: false } });
      expect((await admin.api.shares.details()).find((d) => d.id === smbOnly.id)).to.include({ smbEnabled: true, sftpEnabled: false });
    });

    it('refuses relative, missing and non-folder paths with fs.share.folder_invalid', async () => {
      const folder = tempFolder();
      writeFileSync(path.join(folder, 'file'), 'x');
      for (const [hostPath, reason] of [
        ['relative/folder', 'notAbsolute'],
        [path.join(folder, 'absent'), 'missing'],
        [path.join(folder, 'file'), 'notFolder'],
      ]) {
        const err = await expectProblem(
          admin.api.shares.create({ body: { name: `x-${reason}`, hostPath: hostPath as string } }),
          'fs.share.folder_invalid',
          400,
        );
        expect(err.problem.params).to.deep.equal({ reason });
      }
    });

    it('refuses folders overlapping the data directory or another share', async () => {
      await expectProblem(admin.api.shares.create({ body: { name: 'data', hostPath: box.dataDir } }), 'fs.share.folder_overlaps', 409);
      await expectProblem(admin.api.shares.create({ body: { name: 'root', hostPath: '/' } }), 'fs.share.folder_overlaps', 409);
      const { share, folder } = await makeShare(admin, 'Outer');
      mkdirSync(path.join(folder, 'inner'));
      const inner = await expectProblem(
        admin.api.shares.create({ body: { name: 'Inner', hostPath: path.join(folder, 'inner') } }),
        'fs.share.folder_overlaps',
        409,
      );
      expect(inner.problem.params).to.deep.equal({ shareId: share.id });
      await expectProblem(admin.api.shares.create({ body: { name: 'Parent', hostPath: path.dirname(folder) } }), 'fs.share.folder_overlaps', 409);
    });

    it('refuses a name already taken, ignoring case', async () => {
      await makeShare(admin, 'Music');
      await expectProblem(admin.api.shares.create({ body: { name: 'MUSIC', hostPath: tempFolder() } }), 'fs.share.name_taken', 409);
    });

    it('answers fs.share.folder_dev_only on a box', async () => {
      const models = initShareModels(box.daemon.db);
      const service = new SharesService({
        models,
        access: new ShareAccessResolver({ grants: models.grants, groupIdsOf: async () => [] }),
        mode: 'box',
        dataDir: box.dataDir,
        logger: box.daemon.logger,
        topics: { publish: () => undefined },
        listUsers: async () => [],
        groupExists: async () => false,
        grantsChanged: () => undefined,
      });
      const err = await service.create({ name: 'Anything', hostPath: tempFolder() }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(ProblemError);
      expect((err as ProblemError).code).to.equal('fs.share.folder_dev_only');
    });
  });

  describe('access and grants', () => {
    it('gives a share only to administrators until granted', async () => {
      const { share } = await makeShare(admin, 'Private');
      expect((await anna.api.shares.list()).map((s) => s.id)).to.not.include(share.id);
      await expectProblem(anna.api.files.list({ params: { shareId: share.id }, query: {} }), 'fs.share.not_found', 404);
    });

    it('lists granted shares with the user access and without the host path', async () => {
      const { share } = await makeShare(admin, 'Team');
      await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'user', subjectId: annaId, level: 'read' }] } });
      const mine = (await anna.api.shares.list()).find((s) => s.id === share.id);
      expect(mine).to.include({ access: 'read', hostPath: null });
      await expectProblem(anna.api.files.createFolder({ params: { shareId: share.id }, body: { path: 'new' } }), 'fs.share.read_only', 403);
      // The grant change applies to the very next request.
      await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'user', subjectId: annaId, level: 'readWrite' }] } });
      await anna.api.files.createFolder({ params: { shareId: share.id }, body: { path: 'new' } });
      await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [] } });
      await expectProblem(anna.api.files.list({ params: { shareId: share.id }, query: {} }), 'fs.share.not_found', 404);
    });

    it('unites own and group grants; administrators read and write; deactivated users have nothing', async () => {
      const { share } = await makeShare(admin, 'Groups');
      const carlId = await insertUser(box, 'carl', 'carl-password-1');
      const groupId = await insertGroup(box, 'editors', [bertId]);
      const grants = await admin.api.shares.setGrants({
        params: { shareId: share.id },
        body: {
          grants: [
            { subjectType: 'user', subjectId: annaId, level: 'read' },
            { subjectType: 'user', subjectId: bertId, level: 'read' },
            { subjectType: 'group', subjectId: groupId, level: 'readWrite' },
            { subjectType: 'user', subjectId: carlId, level: 'readWrite' },
          ],
        },
      });
      await setActive(box, carlId, false);
      const view = await admin.api.shares.grants({ params: { shareId: share.id } });
      expect(grants.grants).to.have.length(4);
      const of = (name: string) => view.effective.find((e) => e.username === name)?.access;
      expect(of('admin')).to.equal('readWrite');
      expect(of('anna')).to.equal('read');
      expect(of('bert')).to.equal('readWrite');
      expect(of('carl')).to.equal('none');
      const bert = await box.signIn('bert', 'bert-password-1');
      expect((await bert.api.shares.list()).find((s) => s.id === share.id)).to.include({ access: 'readWrite' });
      const details = (await admin.api.shares.details()).find((s) => s.id === share.id);
      expect(details).to.include({ readers: 1, writers: 2 });
    });

    it('counts the built-in group of every user', async () => {
      const { share } = await makeShare(admin, 'Everybody');
      const [{ id: usersGroup }] = (await box.daemon.db.query<{ id: number }>("SELECT id FROM groups WHERE built_in = 1 AND name = 'users'", {
        type: QueryTypes.SELECT,
      })) as [{ id: number }];
      await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'group', subjectId: usersGroup, level: 'read' }] } });
      expect((await anna.api.shares.list()).find((s) => s.id === share.id)).to.include({ access: 'read' });
    });

    it('refuses grants of unknown subjects and duplicate subjects', async () => {
      const { share } = await makeShare(admin, 'Checked');
      const user = await expectProblem(
        admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'user', subjectId: 999999, level: 'read' }] } }),
        'fs.grant.subject_not_found',
        400,
      );
      expect(user.problem.params).to.deep.equal({ subjectType: 'user', subjectId: 999999 });
      await expectProblem(
        admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'group', subjectId: 999999, level: 'read' }] } }),
        'fs.grant.subject_not_found',
        400,
      );
      const dup = { subjectType: 'user' as const, subjectId: annaId, level: 'read' as const };
      await expectProblem(
        admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [dup, { ...dup, level: 'readWrite' }] } }),
        'request.body.invalid',
        400,
      );
      await expectProblem(
        admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ ...dup, level: 'write' as never }] } }),
        'request.body.invalid',
        400,
      );
      await expectProblem(admin.api.shares.grants({ params: { shareId: 999999 } }), 'fs.share.not_found', 404);
    });
  });

  describe('settings', () => {
    it('changes name, description, SMB, SFTP and encryption', async () => {
      const { share } = await makeShare(admin, 'Settings');
      const changed = await admin.api.shares.update({
        params: { shareId: share.id },
        body: { name: 'Renamed', description: 'For tests', smbEnabled: true, smbEncrypt: true, sftpEnabled: true },
      });
      expect(changed).to.include({
        name: 'Renamed',
        description: 'For tests',
        smbEnabled: true,
        smbEncrypt: true,
        sftpEnabled: true,
        dataset: null,
        restorePoints: false,
      });
      await expectProblem(admin.api.shares.update({ params: { shareId: share.id }, body: { name: 'Music' } }), 'fs.share.name_taken', 409);
      await expectProblem(admin.api.shares.update({ params: { shareId: share.id }, body: {} }), 'request.body.invalid', 400);
      await expectProblem(admin.api.shares.update({ params: { shareId: share.id }, body: { name: 'a/b' } }), 'request.body.invalid', 400);
      await expectProblem(admin.api.shares.update({ params: { shareId: 999999 }, body: { name: 'x' } }), 'fs.share.not_found', 404);
    });

    it('sets the trash retention from 0 to 3650 days', async () => {
      const { share } = await makeShare(admin, 'Trash');
      await admin.api.shares.setTrash({ params: { shareId: share.id }, body: { retentionDays: 0 } });
      expect((await admin.api.shares.details()).find((s) => s.id === share.id)?.trashRetentionDays).to.equal(0);
      await admin.api.shares.setTrash({ params: { shareId: share.id }, body: { retentionDays: 3650 } });
      expect((await admin.api.shares.details()).find((s) => s.id === share.id)?.trashRetentionDays).to.equal(3650);
      await expectProblem(admin.api.shares.setTrash({ params: { shareId: share.id }, body: { retentionDays: 3651 } }), 'request.body.invalid', 400);
      await expectProblem(admin.api.shares.setTrash({ params: { shareId: share.id }, body: { retentionDays: -1 } }), 'request.body.invalid', 400);
    });

    it('answers fs.share.no_dataset for restore points of a folder share', async () => {
      const { share } = await makeShare(admin, 'NoDataset');
      await expectProblem(admin.api.shares.setRestorePoints({ params: { shareId: share.id }, body: { enabled: true } }), 'fs.share.no_dataset', 409);
      await expectProblem(admin.api.shares.setRestorePoints({ params: { shareId: share.id }, body: { enabled: 'yes' as never } }), 'request.body.invalid', 400);
    });
  });

  describe('shares/list topic', () => {
    it('answers the caller list as snapshot and signals changes', async () => {
      const socket = await connectSocket(box.url, anna);
      try {
        const ack = await socket.subscribe('shares/list');
        expect(ack.ok).to.equal(true);
        expect(ack.ok && Array.isArray(ack.snapshot)).to.equal(true);
        const next = socket.nextEvent('shares/list');
        await makeShare(admin, 'Announced');
        expect((await next).type).to.equal('changed');
      } finally {
        socket.close();
      }
    });
  });

  describe('refusals of every route', () => {
    const routes = (id: number) =>
      [
        ['GET', '/api/shares', false],
        ['POST', '/api/shares', true],
        ['GET', '/api/shares/details', true],
        ['PATCH', `/api/shares/${id}`, true],
        ['GET', `/api/shares/${id}/grants`, true],
        ['PUT', `/api/shares/${id}/grants`, true],
        ['PUT', `/api/shares/${id}/restore-points`, true],
        ['PUT', `/api/shares/${id}/trash`, true],
      ] as const;

    it('answers 401 without a session and 403 to non-administrators on administrator routes', async () => {
      const { share } = await makeShare(admin, 'Refusals');
      for (const [method, url, adminOnly] of routes(share.id)) {
        const anonymous = await box.client().request(method, url, { body: method === 'GET' ? undefined : {} });
        expect(anonymous.status, `${method} ${url}`).to.equal(401);
        expect((await anonymous.json()).code).to.equal('auth.session.required');
        if (!adminOnly) continue;
        const user = await anna.request(method, url, { body: method === 'GET' ? undefined : {} });
        expect(user.status, `${method} ${url}`).to.equal(403);
        expect((await user.json()).code).to.equal('auth.permission.denied');
      }
    });

    it('answers 400 to bad input on every route that takes some', async () => {
      await expectProblem(admin.api.shares.create({ body: { name: '', hostPath: '/tmp' } }), 'request.body.invalid', 400);
      await expectProblem(admin.api.shares.create({ body: { name: 'x' } as never }), 'request.body.invalid', 400);
      for (const [method, url] of [
        ['PATCH', '/api/shares/abc'],
        ['GET', '/api/shares/0/grants'],
        ['PUT', '/api/shares/-1/grants'],
        ['PUT', '/api/shares/x/restore-points'],
        ['PUT', '/api/shares/x/trash'],
      ] as const) {
        const res = await admin.request(method, url, { body: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${url}`).to.equal(400);
        expect((await res.json()).code).to.equal('request.params.invalid');
      }
    });
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createDaemon } from '../../daemon/src/daemon.ts';
import { expectProblem, startTestDaemon } from '../helpers/daemon.ts';

describe('first start in development mode', () => {
  it('creates admin with a random password kept in a 0600 file until it is changed; setup says first run until then', async () => {
    const box = await startTestDaemon({ adminPassword: null });
    try {
      const file = path.join(box.dataDir, 'initial-admin-password');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      const password = readFileSync(file, 'utf8').trim();
      expect(password).to.have.length.of.at.least(12);
      expect((await box.client().api.system.setup()).firstRun).to.equal(true);
      const admin = await box.signIn('admin', password);
      await admin.api.auth.changePassword({ body: { currentPassword: password, newPassword: 'a brand new passphrase 7' } });
      expect(() => statSync(file)).to.throw();
      expect((await box.client().api.system.setup()).firstRun).to.equal(false);
    } finally {
      await box.close();
    }
  });

  it('uses BOX_ADMIN_PASSWORD when set, writes no password file and is past first run', async () => {
    const box = await startTestDaemon();
    try {
      expect(() => statSync(path.join(box.dataDir, 'initial-admin-password'))).to.throw();
      expect((await box.client().api.system.setup()).firstRun).to.equal(false);
    } finally {
      await box.close();
    }
  });

  it('asks for no setup code: a development daemon makes its administrator itself', async () => {
    const box = await startTestDaemon();
    try {
      const anon = box.client();
      expect(await anon.api.system.setup()).to.include({ setupCode: false, boxName: null });
      const body = { code: 'AAAAA-AAAAA', username: 'owner', password: 'a long enough passphrase', boxName: 'Box', language: 'en' as const, region: null };
      await expectProblem(anon.api.firstRun.complete({ body }), 'setup.done', 409);
    } finally {
      await box.close();
    }
  });

  it('refuses to start on a bad variable, naming it', () => {
    const repo = path.resolve(import.meta.dirname, '../..');
    const run = spawnSync(path.join(repo, 'node_modules/.bin/tsx'), ['daemon/src/main.ts'], {
      cwd: repo,
      env: { ...process.env, BOX_PORT: 'seventy', BOX_DATA_DIR: '/nonexistent-never-made' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).to.equal(1);
    expect(run.stderr)
      .to.match(/Invalid configuration/)
      .and.match(/BOX_PORT: /);
  });
});

describe('first-run setup code across a restart', () => {
  it("removes the previous start's code before the start steps, writes a new one and refuses the old", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-test-'));
    const file = path.join(dataDir, 'setup-code');
    writeFileSync(file, 'AAAAA-BBBBB\n', { mode: 0o600 });
    const daemon = await createDaemon({
      config: { mode: 'development', host: '127.0.0.1', port: 0, dataDir, webDir: null, logToConsole: false, logLevel: 'warn', adminPassword: null },
      env: {},
      firstRunSetup: true,
      announceSetupCode: () => undefined,
    });
    try {
      // Built but not started: the database, the areas and the start steps come before a new code.
      expect(existsSync(file)).to.equal(false);
      await daemon.start();
      const code = readFileSync(file, 'utf8').trim();
      expect(code)
        .to.match(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/)
        .and.not.equal('AAAAA-BBBBB');
      const res = await fetch(`${daemon.url()}/api/setup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: 'AAAAA-BBBBB', username: 'owner', password: 'a long enough passphrase', boxName: 'Box', language: 'en', region: null }),
      });
      expect(res.status).to.equal(403);
      expect(((await res.json()) as { code: string }).code).to.equal('setup.code.invalid');
    } finally {
      await daemon.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

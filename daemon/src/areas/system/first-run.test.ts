import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Sequelize } from 'sequelize';
import type { NewUser } from '../../../../shared/src/api/identity/users.ts';
import { createLogger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { FirstRunSetup, setupCodeFile } from './first-run.ts';
import { initSystemSettingModel } from './system-settings.model.ts';
import { SystemService } from './system.service.ts';

// The whole path on a real box (package, box-mode daemon, code from the file, sign-in) is in
// test/system/package-deb.test.ts; here the code's rules, with a clock that moves.
describe('first-run setup code', () => {
  let dataDir: string;
  let db: Sequelize;
  let now: number;
  let created: NewUser[];
  let announced: string[];
  let setup: FirstRunSetup;
  let system: SystemService;

  const code = () => readFileSync(path.join(dataDir, setupCodeFile), 'utf8').trim();
  const request = (over: Partial<Parameters<FirstRunSetup['complete']>[0]> = {}) => ({
    username: 'owner',
    password: 'a long enough passphrase',
    boxName: 'Cellar at home',
    language: 'de' as const,
    region: 'AT',
    ...over,
    // Read only when not given: the file is gone once the code ended.
    code: over.code ?? code(),
  });
  const problem = async (work: Promise<unknown>): Promise<string> => {
    const err = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProblemError);
    return (err as ProblemError).code;
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-first-run-'));
    db = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
    const settings = initSystemSettingModel(db);
    await settings.sync();
    now = Date.parse('2026-11-25T10:00:00Z');
    created = [];
    announced = [];
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    system = new SystemService({
      mode: 'box',
      startedAt: now,
      firstRun: async () => created.length === 0,
      setupCode: () => setup.waiting(),
      settings,
      logger,
      rootCaFingerprint: async () => null,
      timeZone: () => 'UTC',
    });
    setup = new FirstRunSetup({
      dataDir,
      clock: { now: () => now },
      logger,
      system,
      users: {
        count: async () => created.length,
        create: async (body) => {
          if (body.password.length < 12) throw new ProblemError('auth.password.weak', { reason: 'length', minLength: 12 });
          created.push(body);
          return { username: body.username };
        },
      },
      announce: (line) => announced.push(line),
    });
    await setup.prepare();
  });
  afterEach(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes a code of two groups of five to a file only root reads, and tells it on the service output', () => {
    expect(code()).to.match(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    expect(statSync(path.join(dataDir, setupCodeFile)).mode & 0o777).to.equal(0o600);
    expect(announced.join('')).to.include(code());
    expect(setup.waiting()).to.equal(true);
  });

  it('creates the administrator with every right, sets language, region and box name, and ends the code', async () => {
    const given = code();
    // Typed by hand: lower case and without the dash are the same code.
    expect(await setup.complete(request({ code: given.replace('-', '').toLowerCase() }))).to.deep.equal({ username: 'owner' });
    expect(created).to.deep.equal([{ username: 'owner', password: 'a long enough passphrase', admin: true, smb: true, sftp: true, language: 'de' }]);
    expect(await system.region()).to.deep.equal({ language: 'de', region: 'AT' });
    expect(await system.boxName()).to.equal('Cellar at home');
    expect(existsSync(path.join(dataDir, setupCodeFile))).to.equal(false);
    const info = await system.setup();
    expect(info).to.include({ setupCode: false, boxName: 'Cellar at home' });
    expect(await problem(setup.complete(request({ code: given, username: 'second' })))).to.equal('setup.done');
  });

  it('makes one administrator of two setups sent at once with the right code; the other finds the box set up', async () => {
    const outcomes = await Promise.allSettled([setup.complete(request({ username: 'first' })), setup.complete(request({ username: 'second' }))]);
    expect(created.map((u) => u.username)).to.have.length(1);
    expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect((refused.reason as ProblemError).code).to.equal('setup.done');
  });

  it('keeps the code after a refused password, so the owner can try again', async () => {
    expect(await problem(setup.complete(request({ password: 'short' })))).to.equal('auth.password.weak');
    expect(setup.waiting()).to.equal(true);
    await setup.complete(request());
    expect(created).to.have.length(1);
  });

  it('refuses a wrong code, and ends the code after ten wrong ones', async () => {
    const right = code();
    for (let i = 0; i < 9; i++) expect(await problem(setup.complete(request({ code: 'AAAAA-AAAAA' })))).to.equal('setup.code.invalid');
    expect(setup.waiting()).to.equal(true);
    expect(await problem(setup.complete(request({ code: 'AAAAA-AAAAB' })))).to.equal('setup.code.invalid');
    expect(setup.waiting()).to.equal(false);
    expect(await problem(setup.complete(request({ code: right })))).to.equal('setup.code.expired');
    expect(created).to.deep.equal([]);
  });

  it('ends the code an hour after it was made; a new start makes a new one', async () => {
    const first = code();
    now += 60 * 60 * 1000 + 1;
    expect(await problem(setup.complete(request({ code: first })))).to.equal('setup.code.expired');
    await setup.prepare();
    expect(code()).to.not.equal(first);
    await setup.complete(request());
    expect(created).to.have.length(1);
  });

  it('makes no code when the box has a user', async () => {
    created.push({ username: 'someone', password: 'x' });
    await setup.prepare();
    expect(setup.waiting()).to.equal(false);
    expect(existsSync(path.join(dataDir, setupCodeFile))).to.equal(false);
  });
});

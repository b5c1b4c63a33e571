import { randomInt, timingSafeEqual } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FirstRunRequest, FirstRunResult, FirstRunZones } from '../../../../shared/src/api/system/first-run.ts';
import type { NewUser } from '../../../../shared/src/api/identity/users.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { SystemService } from './system.service.ts';

export const setupCodeFile = 'setup-code';
const codeLifetimeMs = 60 * 60 * 1000;
const maxWrongCodes = 10;
// Without 0/O, 1/I/L: the code is read off a terminal and typed by hand.
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/**
 * Removes the previous start's setup code, which no longer opens the box: called first at start,
 * since the new code is made only after the slow start steps and the old one would meanwhile read as valid.
 */
export function dropStaleSetupCode(dataDir: string): void {
  rmSync(path.join(dataDir, setupCodeFile), { force: true });
}

export interface FirstRunDeps {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  system: SystemService;
  users: { count(): Promise<number>; create(body: NewUser): Promise<{ username: string }> };
  /** The time area's TimeService: `set` the box's zone (throws system.zone.unknown), the `zones` its database knows. */
  time?: { set(zone: string): Promise<void>; zones(): Promise<string[]> };
  /** Where the code is told besides its file: the service's output, which the journal keeps (never the log store). */
  announce?: (line: string) => void;
}

/**
 * The first administrator of a box installed from the package. A box-mode daemon without users
 * makes a one-time code at start; whoever can read the journal or the root-only file proves
 * they own the box by typing it. Ten wrong codes end it, so guessing its ~50 bits over the
 * network is hopeless; a restart of the service makes a new one.
 */
export class FirstRunSetup {
  private code: string | null = null;
  private madeAt = 0;
  private wrong = 0;
  /** One setup at a time: the second caller finds the box set up. */
  private running: Promise<unknown> | null = null;

  constructor(private readonly deps: FirstRunDeps) {}

  /** Makes the code when the box has no user yet; call once at start. */
  async prepare(): Promise<void> {
    if ((await this.deps.users.count()) > 0) return this.forget();
    const raw = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
    this.code = raw;
    this.madeAt = this.deps.clock.now();
    this.wrong = 0;
    const shown = `${raw.slice(0, 5)}-${raw.slice(5)}`;
    const file = path.join(this.deps.dataDir, setupCodeFile);
    rmSync(file, { force: true });
    writeFileSync(file, `${shown}\n`, { mode: 0o600 });
    (this.deps.announce ?? ((line) => process.stdout.write(line)))(
      `\nCellar: this box has no administrator yet. Open its web page and enter the setup code ${shown}\n(also in ${file}; valid for one hour, a restart of the service makes a new one)\n\n`,
    );
    this.deps.logger.info('first-run setup code made', { logCode: 'system.firstRunCodeMade', component: 'system', file });
  }

  /** Whether the first page must ask for the code. */
  waiting(): boolean {
    return this.code !== null;
  }

  /** The zones to offer on the first-run page; only while nobody can sign in to read them in the Time section. */
  async zones(): Promise<FirstRunZones> {
    if ((await this.deps.users.count()) > 0) throw new ProblemError('setup.done');
    return { zones: this.deps.time ? await this.deps.time.zones() : ['UTC'] };
  }

  async complete(body: FirstRunRequest): Promise<FirstRunResult> {
    const users = await this.deps.users.count();
    // Asked after the count: a setup that began while it was counted makes its user now.
    if (this.running || users > 0) throw new ProblemError('setup.done');
    if (this.code === null) throw new ProblemError('setup.code.expired');
    if (this.deps.clock.now() - this.madeAt > codeLifetimeMs) {
      this.forget();
      throw new ProblemError('setup.code.expired');
    }
    if (!this.matches(body.code)) {
      this.wrong += 1;
      this.deps.logger.warn('wrong first-run setup code', { logCode: 'system.firstRunWrongCode', component: 'system', attempts: this.wrong });
      if (this.wrong >= maxWrongCodes) this.forget();
      throw new ProblemError('setup.code.invalid');
    }
    const work = this.apply(body);
    this.running = work;
    try {
      return await work;
    } finally {
      this.running = null;
    }
  }

  private async apply(body: FirstRunRequest): Promise<FirstRunResult> {
    // The zone before the user: an unknown zone leaves the code valid for another try.
    if (body.timeZone !== undefined) await this.deps.time?.set(body.timeZone);
    // The user first: a weak password or a taken name leaves the code valid for another try.
    const user = await this.deps.users.create({
      username: body.username,
      password: body.password,
      admin: true,
      smb: true,
      sftp: true,
      language: body.language,
    });
    this.forget();
    await this.deps.system.setRegion({ language: body.language, region: body.region });
    await this.deps.system.setBoxName(body.boxName);
    this.deps.logger.info('first-run setup done', { logCode: 'system.firstRunDone', component: 'system', username: user.username });
    return { username: user.username };
  }

  private matches(given: string): boolean {
    const normal = Buffer.from(given.replace(/[\s-]/g, '').toUpperCase());
    const expected = Buffer.from(this.code ?? '');
    return normal.length === expected.length && timingSafeEqual(normal, expected);
  }

  private forget(): void {
    this.code = null;
    rmSync(path.join(this.deps.dataDir, setupCodeFile), { force: true });
  }
}

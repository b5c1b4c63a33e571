import { mkdir, readFile } from 'node:fs/promises';
import type { InstallRequest } from '../../../../shared/src/api/installer/installer.ts';
import type { UserSummary } from '../../../../shared/src/api/identity/users.ts';
import type { Config } from '../../config/config.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { setupCodeFile } from '../system/first-run.ts';
import path from 'node:path';

/**
 * The composition root's createDaemon as seedBox uses it: daemon.ts hands itself down, so this
 * area never imports the file that builds it.
 */
export type DaemonFactory = (options: {
  config: Partial<Config>;
  env: NodeJS.ProcessEnv;
  firstRunSetup: boolean;
  announceSetupCode: (line: string) => void;
}) => Promise<{ start(): Promise<void>; url(): string; close(): Promise<void> }>;

/**
 * Creates the installed box's daemon data the way its owner would: a daemon on the target's data
 * directory, waiting for its first administrator, gets the installer's answers through its own
 * first-run setup (POST /api/setup on loopback). So users, box name, language and region are
 * made by exactly the code that makes them on a box from the package. Answers the administrator
 * as the database has it (its uid), for the system account the installer makes in the target.
 */
export async function seedBox(createDaemon: DaemonFactory, dataDir: string, request: InstallRequest): Promise<UserSummary> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const daemon = await createDaemon({
    config: { mode: 'development', host: '127.0.0.1', port: 0, dataDir, webDir: null, logToConsole: false, logLevel: 'warn', adminPassword: null },
    env: {},
    firstRunSetup: true,
    // The code goes straight from its file to the request below; nobody is to type it.
    announceSetupCode: () => undefined,
  });
  await daemon.start();
  try {
    const code = (await readFile(path.join(dataDir, setupCodeFile), 'utf8')).trim();
    const res = await fetch(`${daemon.url()}/api/setup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        code,
        username: request.admin.username,
        password: request.admin.password,
        boxName: request.boxName,
        language: request.language,
        region: request.region,
      }),
    });
    if (!res.ok) throw failed('the setup', res.status, await res.text());
    // Signed in as the new administrator, who may list users: the uid is the database's.
    const login = await fetch(`${daemon.url()}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: request.admin.username, password: request.admin.password }),
    });
    if (!login.ok) throw failed('the sign-in', login.status, await login.text());
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const users = await fetch(`${daemon.url()}/api/users`, { headers: { cookie } });
    if (!users.ok) throw failed('the user list', users.status, await users.text());
    const owner = ((await users.json()) as UserSummary[]).find((u) => u.username === request.admin.username);
    if (!owner) throw failed('the user list', users.status, 'without the administrator');
    return owner;
  } finally {
    await daemon.close();
  }
}

const failed = (what: string, status: number, text: string) =>
  new ProblemError('installer.step.failed', { step: 'first administrator' }, { detail: `${what} answered ${status}: ${text}` });

import { mkdir, readFile } from 'node:fs/promises';
import type { InstallRequest } from '../../../../shared/src/api/installer.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { setupCodeFile } from '../system/first-run.ts';
import path from 'node:path';

/**
 * Creates the installed box's daemon data the way its owner would: a daemon on the target's data
 * directory, waiting for its first administrator, gets the installer's answers through its own
 * first-run setup (POST /api/setup on loopback). So users, box name, language and region are
 * made by exactly the code that makes them on a box from the package.
 */
export async function seedBox(dataDir: string, request: InstallRequest): Promise<void> {
  // Loaded here: the composition root builds this area, so a static import would be a cycle.
  const { createDaemon } = await import('../../daemon.ts');
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
    if (!res.ok)
      throw new ProblemError('installer.step.failed', { step: 'first administrator' }, { detail: `the setup answered ${res.status}: ${await res.text()}` });
  } finally {
    await daemon.close();
  }
}

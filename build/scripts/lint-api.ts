// `npm run lint:api`: lints the generated OpenAPI document with Redocly CLI and the rules of redocly.yaml.
// Starts no daemon and stays offline: telemetry and the update check are off, and the rules are built in.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiDocument } from './api-document.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const redoclyCli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/** Lints the document; answers Redocly's exit code (0: no errors) and its report. */
export function lintApi(): { status: number; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-lint-api-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(apiDocument(), null, 1));
    const run = spawnSync(process.execPath, [redoclyCli, 'lint', '--config', path.join(repo, 'redocly.yaml'), '--format', 'codeframe', file], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    });
    return { status: run.status ?? 1, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const { status, output } = lintApi();
  process.stdout.write(output);
  process.exit(status);
}

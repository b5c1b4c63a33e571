import type { SmbSession, SmbSessions } from '../../../../shared/src/api/system/overview.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { CommandRunner } from '../command-runner.ts';

interface StatusJson {
  sessions?: Record<
    string,
    { session_id?: string; username?: string; remote_machine?: string; hostname?: string; session_dialect?: string; encryption?: { cipher?: string } }
  >;
  tcons?: Record<string, { session_id?: string; service?: string }>;
}

/**
 * The open SMB sessions of the smbd that reads `confPath`, from `smbstatus --json` (Samba 4.16 and
 * later): read-only, so it runs on a development machine too. A missing smbstatus is a state that
 * names the package to install, never an error of the caller's.
 */
export async function readSmbSessions(runner: CommandRunner, confPath: string): Promise<SmbSessions> {
  try {
    // smbstatus exits non-zero while no client has ever connected (no locking database yet) but still prints its JSON.
    const result = await runner.read(['smbstatus', '--json', '-s', confPath], { timeoutMs: 10_000, allowFailure: true });
    const start = result.stdout.indexOf('{');
    if (start < 0) return { state: 'failed' };
    return { state: 'ok', sessions: sessionsOf(JSON.parse(result.stdout.slice(start)) as StatusJson) };
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'host.tool.missing') {
      const params = err.params as { tool: string; package: string };
      return { state: 'missing', tool: params.tool, package: params.package };
    }
    return { state: 'failed' };
  }
}

/** Sessions with the shares each has connected (a tree connect names its session). */
export function sessionsOf(status: StatusJson): SmbSession[] {
  const tcons = Object.values(status.tcons ?? {});
  return Object.values(status.sessions ?? {})
    .map((s) => ({
      username: s.username ?? '',
      client: s.remote_machine || s.hostname || '',
      protocol: s.session_dialect ?? '',
      encrypted: Boolean(s.encryption?.cipher),
      shares: [...new Set(tcons.filter((t) => t.session_id === s.session_id && t.service && t.service !== 'IPC$').map((t) => t.service!))].sort(),
    }))
    .sort((a, b) => a.username.localeCompare(b.username) || a.client.localeCompare(b.client));
}

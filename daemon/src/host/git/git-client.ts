import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { installPath } from '../../core/install-paths.ts';
import { GitFailure, runTool } from './git-process.ts';

/** Where a catalog's SSH identity lives: the box's deploy key and the host key pinned on the first fetch. */
export interface SshIdentity {
  folder: string;
}

const keyFile = (id: SshIdentity) => path.join(id.folder, 'deploy_key');
const knownHostsFile = (id: SshIdentity) => path.join(id.folder, 'known_hosts');
const configFile = (id: SshIdentity) => path.join(id.folder, 'ssh_config');
/** Written by older daemons into the key folder; the data directory holds no program now. */
const oldWrapperFile = (id: SshIdentity) => path.join(id.folder, 'git-ssh.cjs');

/**
 * What git runs as GIT_SSH: git execs that program directly, where GIT_SSH_COMMAND (and
 * core.sshCommand) would go through a shell. It ships with the daemon's code (never in the data
 * directory, which may be mounted noexec) and runs ssh with the catalog's configuration, named by
 * CELLAR_SSH_CONFIG, which git passes on to it.
 */
export const gitSshProgram = installPath('daemon/bin/git-ssh');

/** A clean environment: no prompts, no user or system git configuration, no askpass helper. */
function gitEnv(home: string, ssh: SshIdentity | null): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    // GIT_SSH_VARIANT: git would take a program not named ssh for one without -p (ports of ssh:// addresses).
    ...(ssh ? { GIT_SSH: gitSshProgram, GIT_SSH_VARIANT: 'ssh', CELLAR_SSH_CONFIG: configFile(ssh) } : {}),
  };
}

/** Options given on every git command line: no hooks, no symlinks in checkouts, slow transfers give up. */
const safety = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.symlinks=false',
  '-c',
  'http.lowSpeedLimit=1',
  '-c',
  'http.lowSpeedTime=20',
  '-c',
  'submodule.recurse=false',
];

/**
 * The transports a clone of `url` may use, redirects included: its own only, so an https catalog
 * is never redirected to plain http (nor to ssh or file). A development http catalog may go up to
 * https.
 */
export function transportOptions(url: string): string[] {
  const own = url.startsWith('https://') ? ['https'] : url.startsWith('http://') ? ['http', 'https'] : ['ssh'];
  return ['-c', 'protocol.allow=never', ...own.flatMap((t) => ['-c', `protocol.${t}.allow=always`])];
}

/** Bytes of the regular files below `folder` (links and folders themselves not counted); 0 before it exists. */
async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    // A file git renamed or removed since the listing counts as nothing.
    total += (await lstat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size ?? 0;
  }
  return total;
}

const sizeCheckMs = 250;

export interface CloneRequest {
  url: string;
  branch: string;
  dest: string;
  /** An empty folder of the daemon's as git's HOME. */
  home: string;
  ssh: SshIdentity | null;
  timeoutMs: number;
  /** The most bytes `dest` may hold, fetched objects and checkout together: beyond it git is stopped (GitFailure `tooLarge`). */
  maxBytes: number;
  /** A CA file git trusts for https instead of the system's (tests' loopback https servers). */
  caFile?: string;
  signal?: AbortSignal;
}

/**
 * Clones one branch's newest commit into `dest` and answers that commit. The folder is measured
 * while git writes it and once more at the end; a repository beyond `maxBytes` stops git and
 * fails (the caller removes `dest`).
 */
export async function cloneBranch(req: CloneRequest): Promise<string> {
  const env = gitEnv(req.home, req.ssh);
  if (req.ssh) await rm(oldWrapperFile(req.ssh), { force: true });
  const options = [...safety, ...transportOptions(req.url), ...(req.caFile ? ['-c', `http.sslCAInfo=${req.caFile}`] : [])];
  const tooLarge = new AbortController();
  const signal = req.signal ? AbortSignal.any([req.signal, tooLarge.signal]) : tooLarge.signal;
  // Measured again after four times as long as the last walk took (at least every 250 ms): a big checkout costs git at most a fifth more.
  let watch: NodeJS.Timeout | undefined;
  const measure = () => {
    const started = performance.now();
    void folderBytes(req.dest)
      .then((bytes) => {
        if (bytes > req.maxBytes) tooLarge.abort();
      })
      .catch(() => undefined)
      .finally(() => {
        if (!tooLarge.signal.aborted && watch !== undefined) watch = setTimeout(measure, Math.max(sizeCheckMs, 4 * (performance.now() - started)));
      });
  };
  watch = setTimeout(measure, sizeCheckMs);
  try {
    await runTool(['git', ...options, 'clone', '--quiet', '--depth', '1', '--single-branch', '--no-tags', '--branch', req.branch, '--', req.url, req.dest], {
      env,
      timeoutMs: req.timeoutMs,
      signal,
    });
  } catch (err) {
    if (tooLarge.signal.aborted) throw new GitFailure('tooLarge', '');
    throw err;
  } finally {
    clearTimeout(watch);
    watch = undefined;
  }
  if ((await folderBytes(req.dest)) > req.maxBytes) throw new GitFailure('tooLarge', '');
  const { stdout } = await runTool(['git', ...options, '-C', req.dest, 'rev-parse', 'HEAD'], { env, timeoutMs: 10_000, signal: req.signal });
  return stdout.trim();
}

/** Makes the catalog's Ed25519 deploy key (private half 0600) and ssh configuration; answers the public key. */
export async function makeDeployKey(id: SshIdentity, comment: string): Promise<string> {
  await mkdir(id.folder, { recursive: true, mode: 0o700 });
  await runTool(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', keyFile(id)], { env: { PATH: process.env.PATH }, timeoutMs: 20_000 });
  const config = [
    'Host *',
    `  IdentityFile "${keyFile(id)}"`,
    '  IdentitiesOnly yes',
    `  UserKnownHostsFile "${knownHostsFile(id)}"`,
    '  GlobalKnownHostsFile /dev/null',
    // The host key is pinned on the first fetch and must match on every later one.
    '  StrictHostKeyChecking accept-new',
    '  BatchMode yes',
    '  PasswordAuthentication no',
    '  ConnectTimeout 15',
    '  ServerAliveInterval 10',
    '  ServerAliveCountMax 2',
    '',
  ].join('\n');
  await writeFile(configFile(id), config, { mode: 0o600 });
  return (await readFile(`${keyFile(id)}.pub`, 'utf8')).trim();
}

export async function deployPublicKey(id: SshIdentity): Promise<string | null> {
  return (await readFile(`${keyFile(id)}.pub`, 'utf8').catch(() => null))?.trim() ?? null;
}

/** The fingerprint and type of the pinned host key, as `ssh-keygen -l` shows it; null before the first fetch. */
export async function pinnedHostKey(id: SshIdentity): Promise<string | null> {
  const known = await readFile(knownHostsFile(id), 'utf8').catch(() => '');
  if (known.trim() === '') return null;
  const { stdout } = await runTool(['ssh-keygen', '-l', '-f', knownHostsFile(id)], { env: { PATH: process.env.PATH }, timeoutMs: 10_000 });
  return stdout.trim().split('\n')[0] ?? null;
}

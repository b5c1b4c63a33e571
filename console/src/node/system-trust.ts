import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SystemTrustResult, SystemTrustStore } from '../bridge.ts';

/** Where and as whom the console runs: what decides the stores and commands of the plan. */
export interface TrustHost {
  platform: NodeJS.Platform;
  home: string;
  /** Root may write the system's store itself; others go through pkexec where it is installed. */
  isRoot: boolean;
  hasPkexec: boolean;
  /** Folders the Linux tools are looked for in, in order; by default PATH's, then the sbin folders (see toolFolders). */
  toolPath?: string[];
}

/** The root as the stores name it: a nickname for people, a file name, and SHA-1 (how keychain and Windows find it again). */
export interface RootEntry {
  /** A file with the root in PEM. */
  file: string;
  nickname: string;
  fileName: string;
  sha1: string;
}

/** One store's commands, as argument arrays, in order; `folders` are made first; `unavailable` when it cannot be done here. */
export interface StorePlan {
  store: SystemTrustStore;
  commands: string[][];
  folders: string[];
  unavailable: { tool: string; package: string } | null;
}

/**
 * The programs of the plans and where they come from (Debian's package names; macOS and Windows
 * ship theirs). pkexec is a package of its own since Debian 12; policykit-1 is only its transitional name.
 */
const packages: Record<string, string> = {
  certutil: 'libnss3-tools',
  'update-ca-certificates': 'ca-certificates',
  install: 'coreutils',
  rm: 'coreutils',
  pkexec: 'pkexec',
};

/** Debian's folder for local roots; update-ca-certificates links each into /etc/ssl/certs. */
export const localRootsDir = '/usr/local/share/ca-certificates';

const nssDb = (home: string) => path.join(home, '.pki', 'nssdb');

/**
 * The user's NSS database, which Chrome and Chromium read on Linux (Firefox keeps its own per
 * profile). A missing database is created empty first, as Chromium itself would.
 */
function nssPlan(host: TrustHost, command: (db: string) => string[][]): StorePlan {
  const db = nssDb(host.home);
  const create = existsSync(path.join(db, 'cert9.db')) ? [] : [['certutil', '-d', `sql:${db}`, '-N', '--empty-password']];
  return { store: 'nss', commands: [...create, ...command(`sql:${db}`)], folders: [db], unavailable: null };
}

/** The system's store: root writes it itself, others through pkexec (which asks for an administrator's password). */
function systemPlan(host: TrustHost, commands: string[][]): StorePlan {
  if (host.isRoot) return { store: 'system', commands, folders: [], unavailable: null };
  if (host.hasPkexec) return { store: 'system', commands: commands.map((c) => ['pkexec', ...c]), folders: [], unavailable: null };
  return { store: 'system', commands: [], folders: [], unavailable: { tool: 'pkexec', package: packages.pkexec! } };
}

const loginKeychain = (home: string) => path.join(home, 'Library', 'Keychains', 'login.keychain-db');

/** What installing the root means on this system, one plan per store. */
export function planInstall(host: TrustHost, root: RootEntry): StorePlan[] {
  switch (host.platform) {
    case 'linux':
      return [
        nssPlan(host, (db) => [['certutil', '-d', db, '-A', '-t', 'C,,', '-n', root.nickname, '-i', root.file]]),
        systemPlan(host, [['install', '-m', '0644', root.file, path.join(localRootsDir, root.fileName)], ['update-ca-certificates']]),
      ];
    case 'darwin':
      return [
        {
          store: 'keychain',
          commands: [['security', 'add-trusted-cert', '-r', 'trustRoot', '-k', loginKeychain(host.home), root.file]],
          folders: [],
          unavailable: null,
        },
      ];
    case 'win32':
      return [{ store: 'windows', commands: [['certutil', '-user', '-addstore', 'Root', root.file]], folders: [], unavailable: null }];
    default:
      return [];
  }
}

/** What removing it again means: the same stores, each undone by its own tool. */
export function planRemove(host: TrustHost, root: RootEntry): StorePlan[] {
  switch (host.platform) {
    case 'linux':
      return [
        nssPlan(host, (db) => [['certutil', '-d', db, '-D', '-n', root.nickname]]),
        // update-ca-certificates drops the links of roots whose files are gone.
        systemPlan(host, [['rm', '-f', path.join(localRootsDir, root.fileName)], ['update-ca-certificates']]),
      ];
    case 'darwin':
      return [
        {
          store: 'keychain',
          commands: [
            ['security', 'remove-trusted-cert', root.file],
            ['security', 'delete-certificate', '-Z', root.sha1, loginKeychain(host.home)],
          ],
          folders: [],
          unavailable: null,
        },
      ];
    case 'win32':
      return [{ store: 'windows', commands: [['certutil', '-user', '-delstore', 'Root', root.sha1]], folders: [], unavailable: null }];
    default:
      return [];
  }
}

/** Runs one command; never a shell. */
export type CommandRunner = (file: string, args: string[], timeoutMs: number) => Promise<{ code: number | null; stderr: string; missing: boolean }>;

export const execRunner: CommandRunner = (file, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, windowsHide: true }, (err, _stdout, stderr) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      resolve({ code: err ? (typeof code === 'number' ? code : 1) : 0, stderr: String(stderr).trim(), missing: code === 'ENOENT' });
    });
  });

// pkexec and Windows' certutil wait for the user's answer to their own prompt.
const commandTimeoutMs = 120_000;

/** pkexec's exit code when the user dismissed its prompt. 127 is no answer of the user's: not authorised, or a program not found. */
const pkexecDismissed = 126;

/**
 * PATH's folders, then the sbin folders: a desktop user's PATH often lacks them, yet
 * update-ca-certificates lives there, and pkexec (which looks a relative program up in the
 * caller's PATH) is handed the full path found here.
 */
export function toolFolders(pathVariable = process.env.PATH ?? ''): string[] {
  const folders = pathVariable.split(path.delimiter).filter((folder) => path.isAbsolute(folder));
  return [...new Set([...folders, '/usr/local/sbin', '/usr/sbin', '/sbin'])];
}

/** The full path of an executable file of this name in the first folder that has one; null when none has. */
export function findTool(name: string, folders: string[]): string | null {
  for (const folder of folders) {
    const file = path.join(folder, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here, or not executable: the next folder.
    }
  }
  return null;
}

/** Runs each store's plan in turn; a store that fails stops there and says why, the others still run. */
export async function runPlans(plans: StorePlan[], run: CommandRunner = execRunner, folders: string[] = toolFolders()): Promise<SystemTrustResult[]> {
  const results: SystemTrustResult[] = [];
  for (const plan of plans) {
    results.push(await runPlan(plan, run, folders));
  }
  return results;
}

const missing = (store: SystemTrustStore, tool: string): SystemTrustResult => ({
  store,
  state: 'missing',
  tool,
  package: packages[tool] ?? null,
  detail: null,
});

/**
 * Debian's commands with every program (pkexec and the one it runs) found before anything runs
 * and given by its full path: a missing one is a state naming its package, never an exit code
 * to guess at (pkexec exits 127 for a program it cannot find as for a refusal).
 */
function locate(commands: string[][], folders: string[]): { commands: string[][] } | { missing: string } {
  const located: string[][] = [];
  for (const command of commands) {
    const programs = command[0] === 'pkexec' ? 2 : 1;
    const found = command.slice(0, programs).map((name) => findTool(name, folders));
    const absent = found.indexOf(null);
    if (absent >= 0) return { missing: command[absent]! };
    located.push([...(found as string[]), ...command.slice(programs)]);
  }
  return { commands: located };
}

async function runPlan(plan: StorePlan, run: CommandRunner, folders: string[]): Promise<SystemTrustResult> {
  if (plan.unavailable) return { store: plan.store, state: 'missing', tool: plan.unavailable.tool, package: plan.unavailable.package, detail: null };
  // Debian's package names mean something only on Linux; macOS and Windows ship their tools (and Windows finds them with PATHEXT).
  const linux = plan.store === 'nss' || plan.store === 'system';
  let commands = plan.commands;
  if (linux) {
    const located = locate(commands, folders);
    if ('missing' in located) return missing(plan.store, located.missing);
    commands = located.commands;
  }
  for (const folder of plan.folders) mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const [file, ...args] of commands) {
    const answer = await run(file!, args, commandTimeoutMs);
    const name = path.basename(file!);
    const tool = name === 'pkexec' ? path.basename(args[0]!) : name;
    if (answer.missing) return { store: plan.store, state: 'missing', tool: name, package: linux ? (packages[name] ?? name) : null, detail: null };
    if (name === 'pkexec' && answer.code === pkexecDismissed)
      return { store: plan.store, state: 'declined', tool: 'pkexec', package: null, detail: answer.stderr || null };
    if (answer.code !== 0) return { store: plan.store, state: 'failed', tool, package: null, detail: answer.stderr || `exit ${answer.code}` };
  }
  return { store: plan.store, state: 'done', tool: null, package: null, detail: null };
}

/** This process's host: its system, the user's home, and whether it is root or pkexec is on its PATH. */
export function currentTrustHost(): TrustHost {
  const toolPath = toolFolders();
  return { platform: process.platform, home: os.homedir(), isRoot: process.getuid?.() === 0, hasPkexec: findTool('pkexec', toolPath) !== null, toolPath };
}

/** How a box's root is named in the stores: by the box's name for people, by its fingerprint to stay unique. */
export function rootEntry(pem: string, boxName: string, file: string): RootEntry {
  const cert = new X509Certificate(pem);
  const sha256 = cert.fingerprint256.replace(/:/g, '').toLowerCase();
  const name =
    boxName
      .replace(/[^\p{L}\p{N} ._-]/gu, '')
      .trim()
      .slice(0, 64) || 'box';
  return {
    file,
    nickname: `Cellar ${name} root ${sha256.slice(0, 16)}`,
    fileName: `cellar-${sha256.slice(0, 16)}.crt`,
    sha1: cert.fingerprint.replace(/:/g, ''),
  };
}

/** Writes the root to a file of its own for the tools to read, runs the plans, and removes the file. */
export async function applyRoot(
  plan: typeof planInstall,
  pem: string,
  boxName: string,
  host: TrustHost,
  run: CommandRunner = execRunner,
): Promise<SystemTrustResult[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cellar-root-'));
  try {
    const file = path.join(dir, 'root.crt');
    writeFileSync(file, pem, { mode: 0o644 });
    return await runPlans(plan(host, rootEntry(pem, boxName, file)), run, host.toolPath ?? toolFolders());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

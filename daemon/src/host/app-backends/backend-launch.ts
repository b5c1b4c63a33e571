import { spawn, type ChildProcess } from 'node:child_process';

export interface BackendLaunch {
  appId: string;
  uid: number;
  /** The program and its arguments from the manifest, run in `cwd`, never through a shell. */
  command: string[];
  cwd: string;
  socket: string;
  dataDir: string;
  /** Storage id to the real path of the folder mapped to it (mappings in force only). */
  storage: Record<string, string>;
}

/** A PATH with the box's own programs only: an app names `node`, not where it lives. */
const backendPath = '/usr/local/bin:/usr/bin:/bin';

/**
 * Starts an app's backend. As root it runs through util-linux's setpriv under the app's own uid
 * and gid, without supplementary groups, capabilities or the means to gain privileges again
 * (no_new_privs); a development daemon that is not root runs it as itself. `confine` is the
 * prefix that starts it inside its limits (backend-limits.ts), empty where none hold.
 */
export function launchBackend(b: BackendLaunch, asRoot: boolean, confine: readonly string[] = []): ChildProcess {
  const [program, ...args] = b.command;
  if (!program) throw new Error(`the backend of ${b.appId} names no program`);
  const argv = asRoot
    ? ['setpriv', `--reuid=${b.uid}`, `--regid=${b.uid}`, '--clear-groups', '--no-new-privs', '--inh-caps=-all', '--bounding-set=-all', '--', program, ...args]
    : [program, ...args];
  // Only what the backend needs: never the daemon's own environment (it may hold secrets).
  const env = {
    PATH: backendPath,
    HOME: b.dataDir,
    LANG: 'C.UTF-8',
    NODE_ENV: 'production',
    CELLAR_APP_ID: b.appId,
    CELLAR_BACKEND_SOCKET: b.socket,
    CELLAR_DATA_DIR: b.dataDir,
    // JSON: {"<storageId>": "<folder>"}; a change of mappings restarts the backend with the new one.
    CELLAR_STORAGE: JSON.stringify(b.storage),
  };
  const [file, ...rest] = [...confine, ...argv];
  return spawn(file as string, rest, { cwd: b.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
}

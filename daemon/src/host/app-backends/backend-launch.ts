import { spawn, type ChildProcess } from 'node:child_process';
import { installPath } from '../../core/install-paths.ts';

export interface BackendLaunch {
  appId: string;
  uid: number;
  /** The program and its arguments from the manifest, run in `cwd`, never through a shell. */
  command: string[];
  cwd: string;
  dataDir: string;
  /** Storage id to the real path of the folder mapped to it (mappings in force only). */
  storage: Record<string, string>;
}

/** A PATH with the box's own programs only: an app names `node`, not where it lives. */
const backendPath = '/usr/local/bin:/usr/bin:/bin';

/** Sets LISTEN_PID to the backend's own pid before it execs the rest (daemon/bin/listen-pid). */
export const listenPidProgram = installPath('daemon/bin/listen-pid');

/**
 * Starts an app's backend. As root it runs through util-linux's setpriv under the app's own uid
 * and gid, without supplementary groups, capabilities or the means to gain privileges again
 * (no_new_privs); a development daemon that is not root runs it as itself. `listenFd`, the
 * listening socket the daemon made for it (backend-socket.ts), becomes its fd 3 (socket activation).
 * `confine` is the prefix that starts it inside its limits (backend-limits.ts), empty where none
 * hold; it execs what follows, so the pid listen-pid announces stays the backend's.
 */
export function launchBackend(b: BackendLaunch, listenFd: number, asRoot: boolean, confine: readonly string[] = []): ChildProcess {
  const [program, ...args] = b.command;
  if (!program) throw new Error(`the backend of ${b.appId} names no program`);
  const argv = asRoot
    ? [
        listenPidProgram,
        'setpriv',
        `--reuid=${b.uid}`,
        `--regid=${b.uid}`,
        '--clear-groups',
        '--no-new-privs',
        '--inh-caps=-all',
        '--bounding-set=-all',
        '--',
        program,
        ...args,
      ]
    : [listenPidProgram, program, ...args];
  // Only what the backend needs: never the daemon's own environment (it may hold secrets).
  const env = {
    PATH: backendPath,
    HOME: b.dataDir,
    LANG: 'C.UTF-8',
    NODE_ENV: 'production',
    CELLAR_APP_ID: b.appId,
    // Socket activation as systemd does it (sd_listen_fds): fd 3, named `backend`; LISTEN_PID is set by listen-pid.
    LISTEN_FDS: '1',
    LISTEN_FDNAMES: 'backend',
    CELLAR_DATA_DIR: b.dataDir,
    // JSON: {"<storageId>": "<folder>"}; a change of mappings restarts the backend with the new one.
    CELLAR_STORAGE: JSON.stringify(b.storage),
  };
  const [file, ...rest] = [...confine, ...argv];
  return spawn(file as string, rest, { cwd: b.cwd, env, stdio: ['ignore', 'pipe', 'pipe', listenFd], detached: false });
}

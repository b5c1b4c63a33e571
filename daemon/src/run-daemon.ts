import { guardRejections } from './core/rejection-guard.ts';
import { createDaemon, type Daemon } from './daemon.ts';
import type { DaemonOptions } from './daemon-types.ts';

/** Exit status that asks systemd for a restart (RestartForceExitStatus=75 in build/debian/cellar.service). */
export const restartExitStatus = 75;

/**
 * Builds and starts the daemon, and stops it cleanly on SIGTERM or SIGINT: the process's life, as
 * main.ts runs it (system tests run it too, with their seams in `options`).
 * A restore asks for a restart: the daemon is closed and built again from the same data directory
 * in this process, so every cache starts from the restored configuration (box and development alike;
 * a failed rebuild exits non-zero, and systemd's Restart=on-failure starts the box's service again).
 * After an update changed the box's package, or the system returned to a snapshot, the code on disk
 * is not the code in memory: the daemon closes and exits 75, and systemd starts it again from the new files.
 */
export async function runDaemon(options: Omit<DaemonOptions, 'restart'> = {}): Promise<void> {
  let stopping = false;
  let daemon: Daemon;
  let built = false;
  guardRejections((message, fields) => {
    if (built) daemon.logger.error(message, fields);
    else process.stderr.write(`${message}: ${fields.error}\n`);
  });
  const build = async (): Promise<void> => {
    daemon = await createDaemon({
      ...options,
      restart: (reason = 'restore') =>
        void (reason === 'restore' ? rebuild() : exitForRestart(reason)).catch((err: unknown) => {
          // A close that failed: systemd's Restart=on-failure starts the service again.
          process.stderr.write(`Cellar could not restart: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
          process.exit(1);
        }),
    });
    built = true;
    await daemon.start();
  };
  const rebuild = async (): Promise<void> => {
    if (stopping) return;
    daemon.logger.info('restarting', { component: 'daemon', reason: 'restore' });
    await daemon.close();
    await build().catch((err: unknown) => {
      process.stderr.write(`Cellar could not restart: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
  };
  const exitForRestart = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    daemon.logger.info('restarting', { component: 'daemon', reason });
    await daemon.close().catch(() => undefined);
    process.exit(restartExitStatus);
  };
  await build();
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    daemon.logger.info('stopping', { logCode: 'daemon.stopping', component: 'daemon', signal });
    daemon.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

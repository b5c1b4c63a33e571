import { ConfigError } from './config/config.ts';
import { createDaemon, type Daemon } from './daemon.ts';
import { MigrationError } from './db/migrate.ts';

/**
 * Reads the configuration, builds and starts the daemon, and stops it cleanly on SIGTERM or SIGINT.
 * A restore asks for a restart: the daemon is closed and built again from the same data directory
 * in this process, so every cache starts from the restored configuration (box and development alike;
 * a failed rebuild exits non-zero, and systemd's Restart=on-failure starts the box's service again).
 * After an update changed the box's package, or the system returned to a snapshot, the code on disk
 * is not the code in memory: the daemon closes and exits 75, and systemd starts it again from the new files.
 */
async function main(): Promise<void> {
  let stopping = false;
  let daemon: Daemon;
  const build = async (): Promise<void> => {
    daemon = await createDaemon({ restart: (reason = 'restore') => void (reason === 'restore' ? rebuild() : exitForRestart(reason)) });
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
    process.exit(75);
  };
  await build();
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    daemon.logger.info('stopping', { component: 'daemon', signal });
    daemon.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  // Configuration and migration problems are the operator's to fix: say what, not where in the code.
  if (err instanceof ConfigError || err instanceof MigrationError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`Cellar could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

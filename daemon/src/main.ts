import { ConfigError } from './config/config.ts';
import { createDaemon } from './daemon.ts';
import { MigrationError } from './db/migrate.ts';

/** Reads the configuration, builds and starts the daemon, and stops it cleanly on SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const daemon = await createDaemon();
  await daemon.start();
  let stopping = false;
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

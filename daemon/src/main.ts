import { ConfigError } from './config/config.ts';
import { MigrationError } from './db/migrate.ts';
import { runDaemon } from './run-daemon.ts';

/** The daemon's entry point: reads the configuration from the environment and runs (run-daemon.ts) until stopped. */
runDaemon().catch((err: unknown) => {
  // Configuration and migration problems are the operator's to fix: say what, not where in the code.
  if (err instanceof ConfigError || err instanceof MigrationError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`Cellar could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

// The daemon as main.ts runs it (run-daemon.ts: configuration from the environment, exit 75 for a
// restart), with the updates seams of a system test in CELLAR_TEST_UPDATES (JSON): a Debian root,
// system datasets and a loopback channel. Started by updates-restart-zfs.test.ts; not a test file itself.
import type { UpdatesOptions } from '../../daemon/src/areas/updates/updates.area.ts';
import { runDaemon } from '../../daemon/src/run-daemon.ts';

const updates = JSON.parse(process.env.CELLAR_TEST_UPDATES ?? '{}') as Partial<UpdatesOptions>;
runDaemon({ updates }).catch((err: unknown) => {
  process.stderr.write(`the test daemon could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

// The daemon as main.ts runs it (run-daemon.ts), in which a promise is then rejected with nobody to
// catch it, as a bug in an area would. Started by test/api/unhandled-rejection.test.ts; not a test file itself.
import { runDaemon } from '../../daemon/src/run-daemon.ts';

await runDaemon();
void Promise.reject(new Error('a bug nobody caught'));
setTimeout(() => {
  process.stdout.write('still running after the rejection\n');
  // The daemon's own way out: SIGTERM closes it and exits 0.
  process.kill(process.pid, 'SIGTERM');
}, 500);

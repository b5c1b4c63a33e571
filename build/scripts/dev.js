// `npm run dev`: the daemon, restarted on every change of its sources, beside the Vite dev
// server (hot reload, /api and /socket.io proxied to the daemon). Either one ending ends both.
import { spawn } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = (pkg, file) => path.join(repo, 'node_modules', pkg, file);

const children = [
  spawn(process.execPath, [bin('tsx', 'dist/cli.mjs'), 'watch', '--clear-screen=false', 'daemon/src/main.ts'], { cwd: repo, stdio: 'inherit' }),
  spawn(process.execPath, [bin('vite', 'bin/vite.js'), '--config', 'web/vite.config.ts'], { cwd: repo, stdio: 'inherit' }),
];

let exitCode = null;
function stopAll(signal) {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(signal));

for (const child of children) {
  child.on('exit', (code, signal) => {
    exitCode ??= code ?? (signal ? 1 : 0);
    stopAll('SIGTERM');
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
}

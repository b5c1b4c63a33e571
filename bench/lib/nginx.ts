import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);
export const nginxInstallHint = 'flock /tmp/apt.lock apt-get install -y --no-install-recommends nginx';

export interface NginxServer {
  url: string;
  /** The master process; the worker is its child. */
  pid: number;
  stop(): Promise<void>;
}

/** Fails loudly when Debian's nginx (the download baseline) is not installed. */
export async function requireNginx(): Promise<void> {
  try {
    await run('nginx', ['-v']);
  } catch {
    throw new Error(`nginx (the download baseline) is missing; install it with: ${nginxInstallHint}`);
  }
}

/**
 * Starts nginx in the foreground with a private configuration under `workDir` (pid, logs and
 * temp paths there), serving `root` on a free loopback port with sendfile, as a box's reverse
 * proxy would serve static files. One worker: the daemon answers a download on one thread too.
 */
export async function startNginx(workDir: string, root: string): Promise<NginxServer> {
  const port = await freePort();
  mkdirSync(path.join(workDir, 'logs'), { recursive: true });
  const conf = path.join(workDir, 'nginx.conf');
  const temp = (name: string) => path.join(workDir, `${name}-temp`);
  writeFileSync(
    conf,
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${path.join(workDir, 'nginx.pid')};`,
      `error_log ${path.join(workDir, 'logs/error.log')} warn;`,
      'events { worker_connections 64; }',
      'http {',
      '  access_log off;',
      '  sendfile on;',
      '  tcp_nopush on;',
      '  default_type application/octet-stream;',
      `  client_body_temp_path ${temp('client')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      `  server { listen 127.0.0.1:${port}; root ${root}; }`,
      '}',
      '',
    ].join('\n'),
  );
  await run('nginx', ['-t', '-q', '-c', conf, '-p', workDir]);
  const child = spawn('nginx', ['-c', conf, '-p', workDir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${workDir}/logs/error.log`);
    const up = await fetch(url, { method: 'HEAD' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('nginx did not answer within 10 s');
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        // SIGQUIT is nginx's graceful stop.
        child.kill('SIGQUIT');
      }),
  };
}

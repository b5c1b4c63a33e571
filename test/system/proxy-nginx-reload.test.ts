import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { NginxHost } from '../../daemon/src/host/nginx/nginx-host.ts';

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Answers of `concurrency` keep-alive clients for `ms`: status codes and error codes counted. */
async function hammer(port: number, host: string, ms: number, concurrency = 8): Promise<Record<string, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const seen: Record<string, number> = {};
  const deadline = Date.now() + ms;
  const one = () =>
    new Promise<void>((resolve) => {
      const count = (key: string) => ((seen[key] = (seen[key] ?? 0) + 1), resolve());
      const req = http.get({ host: '127.0.0.1', port, agent, headers: { Host: host } }, (res) => {
        res.resume();
        res.on('end', () => count(String(res.statusCode)));
      });
      req.on('error', (err: NodeJS.ErrnoException) => count(err.code ?? 'error'));
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  agent.destroy();
  return seen;
}

/**
 * nginx serves a change from the moment apply() answers: a host added right after nginx started
 * meets no worker of the configuration before it (whose default server answered 302, and whose
 * closing connections reset requests under load).
 */
describe('system: nginx serves a change as soon as it is applied', function () {
  this.timeout(120_000);
  const work = mkdtempSync(path.join(tmpdir(), 'cellar-nginx-reload-'));
  let target: Server;

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    target = createServer((_req, res) => res.end('target'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    target?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('has a worker once started, and answers for a host added at once with no 302 and no reset', async () => {
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    const targetPort = (target.address() as AddressInfo).port;
    for (let trial = 0; trial < 5; trial++) {
      const dir = path.join(work, String(trial));
      const nginx = new NginxHost({ dir, runner: new CommandRunner(logger, true), logger, run: true });
      const port = await freePort();
      const run = nginx.runtimeDir;
      const conf = (host: boolean) =>
        [
          `daemon off; worker_processes 1; pid ${run}/nginx.pid; error_log ${run}/error.log warn;`,
          'events { worker_connections 1024; }',
          `http { access_log off; client_body_temp_path ${run}/body; proxy_temp_path ${run}/proxy; fastcgi_temp_path ${run}/fastcgi;`,
          `uwsgi_temp_path ${run}/uwsgi; scgi_temp_path ${run}/scgi;`,
          `server { listen 127.0.0.1:${port} default_server; return 302 http://unknown.invalid/; }`,
          host ? `server { listen 127.0.0.1:${port}; server_name app.local; location / { proxy_pass http://127.0.0.1:${targetPort}; } }` : '',
          '}',
        ].join('\n');
      try {
        await nginx.apply(conf(false), {});
        const master = readFileSync(path.join(run, 'nginx.pid'), 'utf8').trim();
        expect(readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim()).not.to.equal('');
        await nginx.apply(conf(true), {});
        const seen = await hammer(port, 'app.local', 300);
        expect(Object.keys(seen)).to.deep.equal(['200']);
      } finally {
        await nginx.stop();
      }
    }
  });
});

import http from 'node:http';
import { freePort } from './free-port.ts';
import { daemonCommand, spawnUntilReady, type Spawned } from './spawn-server.ts';
import { cookieHeader } from './cookies.ts';

const password = 'bench password 12345';

export interface DaemonSession {
  base: string;
  /** The process that runs the daemon (tsx, with node as its child). */
  pid: number;
  /** Cookie and CSRF headers of the signed-in administrator. */
  headers: Record<string, string>;
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** The real daemon in its own process (development mode), signed in as its administrator. */
export async function startSignedInDaemon(dataDir: string): Promise<DaemonSession> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { BOX_PORT: String(port), BOX_DATA_DIR: dataDir, BOX_ADMIN_PASSWORD: password, BOX_LOG_LEVEL: 'warn', BOX_MODE: 'development' };
  const daemon: Spawned = await spawnUntilReady(await daemonCommand(), `${base}/api/health`, env);
  try {
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const answer = (await login.json()) as { state: string; user?: { csrfToken: string } };
    if (answer.state !== 'signedIn' || !answer.user) throw new Error(`bench sign-in failed: ${JSON.stringify(answer)}`);
    const cookie = cookieHeader(login);
    const headers = { Cookie: cookie, 'X-CSRF-Token': answer.user.csrfToken };
    // A fresh connection per call (agent: false): the baseline's synchronous stat loop blocks this
    // process, and a kept-alive socket the daemon closed meanwhile would fail the next request.
    const json = <T>(method: string, path: string, body?: unknown): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = http.request(
          `${base}${path}`,
          { method, agent: false, headers: { ...headers, ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }) } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => {
              if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path} answered ${res.statusCode}: ${text}`));
              else resolve(JSON.parse(text) as T);
            });
          },
        );
        req.once('error', reject);
        req.end(payload);
      });
    return { base, pid: daemon.child.pid ?? 0, headers, json, stop: () => daemon.stop() };
  } catch (err) {
    await daemon.stop();
    throw err;
  }
}

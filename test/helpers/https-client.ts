import { Agent, request } from 'node:https';
import { connect } from 'node:tls';

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as it came (a backup file, a download). */
  bytes: Buffer;
}

/** A caller of an HTTPS daemon that trusts only the given root, keeps its cookies and CSRF token, and reuses its connections. */
export function httpsClient(base: string, ca: string) {
  const agent = new Agent({ ca, keepAlive: true, maxSockets: 1 });
  let cookie = '';
  let csrf: string | null = null;
  const send = (method: string, path: string, body?: unknown): Promise<HttpsAnswer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (cookie) headers.Cookie = cookie;
      if (csrf && method !== 'GET') headers['X-CSRF-Token'] = csrf;
      const payload = body === undefined ? undefined : JSON.stringify(body);
      if (payload) headers['Content-Type'] = 'application/json';
      const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const set = res.headers['set-cookie'];
          if (set?.length) cookie = set.map((line) => line.split(';')[0]).join('; ');
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  return {
    agent,
    send,
    cookieHeader: () => cookie,
    async signIn(username: string, password: string): Promise<HttpsAnswer> {
      const answer = await send('POST', '/api/auth/login', { username, password });
      csrf = (JSON.parse(answer.body) as { user?: { csrfToken: string } }).user?.csrfToken ?? null;
      return answer;
    },
    close: () => agent.destroy(),
  };
}

/** The suite and protocol a handshake offering only `ciphers` (and at most `maxVersion`) agrees on, or the refusal. */
export function handshake(
  server: { port: number; servername?: string },
  ciphers: string | undefined,
  maxVersion: 'TLSv1.2' | 'TLSv1.3',
): Promise<{ cipher: string; protocol: string } | 'refused'> {
  return new Promise((resolve) => {
    // Security level 0: the client itself must be willing to offer the old suites the server has to refuse.
    const options = { host: '127.0.0.1', port: server.port, servername: server.servername, rejectUnauthorized: false, maxVersion };
    const socket = connect({ ...options, ciphers: ciphers && `${ciphers}:@SECLEVEL=0` }, () => {
      resolve({ cipher: socket.getCipher().standardName, protocol: socket.getProtocol() ?? '' });
      socket.end();
    });
    socket.on('error', () => resolve('refused'));
  });
}

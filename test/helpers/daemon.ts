import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, createApiClient, type ApiClient } from '../../shared/src/client.ts';
import type { UserInfo } from '../../shared/src/api/identity/auth.ts';
import type { Config } from '../../daemon/src/config/config.ts';
import { createDaemon, type Daemon, type DaemonOptions } from '../../daemon/src/daemon.ts';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import { cookieFetch } from './cookie-fetch.ts';
import { fetchFrom, nodeFetch } from './local-address.ts';
import { loopbackLookup } from './loopback-lookup.ts';
import { ContractMismatch, contractChecker, rawBody, type ContractChecker } from './openapi-check.ts';

export const adminPassword = 'correct horse battery staple';

/** One browser-like caller: its own cookies, CSRF token and typed client. */
export interface TestClient {
  api: ApiClient;
  fetch: typeof fetch;
  csrfToken: string | null;
  cookieHeader(): string;
  user: UserInfo | null;
  /** A raw request with this client's cookies (and CSRF token when `csrf` is true), from the loopback address `from` if given. */
  request(method: string, urlPath: string, init?: { body?: unknown; headers?: Record<string, string>; csrf?: boolean; from?: string }): Promise<Response>;
}

export interface TestDaemon {
  daemon: Daemon;
  url: string;
  dataDir: string;
  client(): TestClient;
  signIn(username?: string, password?: string): Promise<TestClient>;
  /** Stops the daemon; the data directory stays when `keepData` (restart tests). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** A real daemon in this process on a free loopback port with a fresh data directory and SQLite file. */
export async function startTestDaemon(
  config: Partial<Config> = {},
  // Every seam of the daemon but its configuration, which `config` above sets.
  options: Omit<DaemonOptions, 'config' | 'env'> = {},
): Promise<TestDaemon> {
  const dataDir = config.dataDir ?? mkdtempSync(path.join(tmpdir(), 'cellar-test-'));
  const daemon = await createDaemon({
    config: {
      mode: 'development',
      host: '127.0.0.1',
      port: 0,
      adminPassword,
      logLevel: 'debug',
      logToConsole: false,
      validateResponses: true,
      webDir: null,
      ...config,
      dataDir,
    },
    env: {},
    ...options,
    // The project catalog on a loopback port nobody listens on: opening the App Center fetches it
    // once, and a test must never reach the project's server.
    // Names a pairing is given are resolved without DNS (the hostile sweep types `a` as an address).
    replication: { lookup: loopbackLookup, ...options.replication },
    store: { projectCatalogs: [{ id: 'cellar', name: 'Cellar', url: 'http://127.0.0.1:9/cellar/catalog.git' }], ...options.store },
  });
  await daemon.start();
  const url = daemon.url();

  // The installation medium serves HTTPS with a key of its own: its clients pin that key, as a console does.
  const mediumCertificate = path.join(dataDir, 'medium-tls', 'certificate.pem');
  const pinned = url.startsWith('https:') && existsSync(mediumCertificate) ? readFileSync(mediumCertificate, 'utf8') : undefined;
  // Any other HTTPS daemon is trusted by its own root, read from its data directory (not from what it presents).
  const root = url.startsWith('https:') && !pinned ? new TlsStore(path.join(dataDir, 'tls'), path.join(dataDir, 'tls-secret')).rootPem() : null;
  const base = pinned ? nodeFetch({ pinnedCertificate: pinned }) : root ? nodeFetch({ ca: root }) : fetch;
  // Fetched on the first call of a client: other HTTPS daemons' tests bring their own client and trust.
  let loaded: Promise<ContractChecker> | undefined;
  const checker = () => (loaded ??= contractChecker(url, base));

  const client = (): TestClient => {
    const jar = cookieFetch(base);
    const raw = checkedFetch(jar.fetch, checker, 'answers');
    const self: TestClient = {
      // The typed client sends only what the document allows; raw requests may be deliberately bad.
      api: createApiClient({ baseUrl: url, fetch: checkedFetch(jar.fetch, checker, 'both'), csrfToken: () => self.csrfToken }),
      fetch: raw,
      csrfToken: null,
      user: null,
      cookieHeader: jar.cookieHeader,
      request: (method, urlPath, init = {}) => {
        const headers: Record<string, string> = { ...init.headers };
        let body: string | undefined;
        if (init.body !== undefined) {
          body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
          headers['Content-Type'] ??= 'application/json';
        }
        if (init.csrf !== false && self.csrfToken && method !== 'GET') headers['X-CSRF-Token'] ??= self.csrfToken;
        const send = init.from ? checkedFetch(jar.via(fetchFrom(init.from, pinned)), checker, 'answers') : raw;
        return send(url + urlPath, { method, headers, body });
      },
    };
    return self;
  };

  return {
    daemon,
    url,
    dataDir,
    client,
    async signIn(username = 'admin', password = adminPassword) {
      const c = client();
      const answer = await c.api.auth.login({ body: { username, password } });
      if (answer.state !== 'signedIn') throw new Error(`${username} needs a second factor`);
      c.user = answer.user;
      c.csrfToken = answer.user.csrfToken;
      return c;
    },
    async close(options = {}) {
      await daemon.close();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fetch that checks each call against the daemon's OpenAPI document. Every answer must match it.
 * With 'both', a request must too, unless the test meant it to be bad: a request the document
 * refuses may be sent, but the daemon must then refuse it as well (with a documented problem,
 * which the answer check sees); a daemon that accepts it means the document is wrong.
 */
export function checkedFetch(inner: typeof fetch, contract: () => Promise<ContractChecker>, what: 'both' | 'answers'): typeof fetch {
  return async (input, init = {}) => {
    const checker = await contract();
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    let mismatch: string | null = null;
    if (what === 'both' && url.pathname.startsWith('/api/')) {
      const body = typeof init.body === 'string' || init.body === undefined || init.body === null ? (init.body ?? undefined) : rawBody;
      mismatch = checker.requestMismatch({ method, url, headers: new Headers(init.headers), body });
    }
    const response = await inner(input, init);
    await checker.checkResponse(method, url, response);
    if (mismatch && response.ok) throw new ContractMismatch(`${mismatch}; yet the daemon accepted it with ${response.status}`);
    return response;
  };
}

/** Asserts that a promise rejects with an ApiError of the given code and answers that error. */
export async function expectProblem(promise: Promise<unknown>, code: string, status?: number): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code !== code) throw new Error(`expected ${code}, got ${err.code} (${err.status}): ${err.message}`, { cause: err });
    if (status !== undefined && err.status !== status) throw new Error(`expected status ${status} for ${code}, got ${err.status}`, { cause: err });
    return err;
  }
  throw new Error(`expected the call to fail with ${code}, but it succeeded`);
}

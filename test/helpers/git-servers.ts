import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

const listen = (server: Server | ReturnType<typeof createTcpServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/**
 * `git http-backend` behind a small CGI bridge on loopback: serves the repositories below `root`
 * (`<url>/<name>/.git` for a work tree) to git clients as a smart HTTP server does.
 */
export async function startGitHttp(root: string, pace?: Pace): Promise<LoopbackServer> {
  const server = createServer(gitBackend(root, pace));
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The same over HTTPS with the given certificate (for 127.0.0.1). Below `/redirect/` every request
 * is answered with a redirect to `redirectTo` plus the rest of its path (an https catalog sent to
 * plain http); everything else is served as startGitHttp serves it.
 */
export async function startGitHttps(root: string, tls: { key: Buffer; cert: Buffer }, redirectTo: string): Promise<LoopbackServer> {
  const serve = gitBackend(root);
  const server = createHttpsServer(tls, (req, res) => {
    if (req.url?.startsWith('/redirect/')) {
      res.writeHead(302, { Location: `${redirectTo}/${req.url.slice('/redirect/'.length)}` }).end();
      return;
    }
    serve(req, res);
  });
  const port = await listen(server);
  return {
    url: `https://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A slow server: answers are sent at this many bytes a second, and the bytes each answer got out are counted (in order of the requests). */
export interface Pace {
  bytesPerSecond: number;
  sent: number[];
}

const paceStep = 4096;

/** `git http-backend` as a request handler for the repositories below `root`. */
function gitBackend(root: string, pace?: Pace): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const answer = pace ? pace.sent.push(0) - 1 : 0;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    // A client that gave up: git's output goes nowhere.
    res.on('close', () => child.kill());
    // Paced pieces go out one after another; the answer ends once git ended and the last piece is out.
    let queue = Promise.resolve();
    const write = (chunk: Buffer) => {
      if (!pace) {
        res.write(chunk);
        return;
      }
      child.stdout.pause();
      queue = queue.then(async () => {
        for (let i = 0; i < chunk.length && !res.destroyed; i += paceStep) {
          const piece = chunk.subarray(i, i + paceStep);
          res.write(piece);
          pace.sent[answer] = (pace.sent[answer] ?? 0) + piece.length;
          await new Promise((resolve) => setTimeout(resolve, (piece.length * 1000) / pace.bytesPerSecond));
        }
        child.stdout.resume();
      });
    };
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      started = true;
      write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => void queue.then(() => res.end()));
  };
}

/** A server that accepts connections and never answers: what a stuck catalog server looks like to git. */
export async function startStuckServer(): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

import { io, type Socket } from 'socket.io-client';
import type { ProblemDetails } from '../../shared/src/errors/index.ts';
import type { SubscribeAck, TopicClientEvents, TopicEnded, TopicEvent, TopicServerEvents, UnsubscribeAck } from '../../shared/src/topics.ts';
import type { TestClient } from './daemon.ts';

export type TopicSocket = Socket<TopicServerEvents, TopicClientEvents>;

/** A Socket.IO client as the web desktop uses it, with a test client's cookies, plus waiting helpers. */
export interface TestSocket {
  socket: TopicSocket;
  subscribe(topic: string): Promise<SubscribeAck>;
  /** Sends a raw subscribe body (bad input tests). */
  subscribeRaw(body: unknown): Promise<SubscribeAck>;
  unsubscribe(topic: string): Promise<UnsubscribeAck>;
  /** The next "event" of a topic; rejects after `timeoutMs`. */
  nextEvent(topic: string, timeoutMs?: number): Promise<TopicEvent>;
  /** Every "event" received so far, in order. */
  events: TopicEvent[];
  /** The next "topic.ended" of a topic. */
  nextEnded(topic: string, timeoutMs?: number): Promise<TopicEnded>;
  /** Answers the reason ("io server disconnect" when the server closed it), also when it closed already. */
  waitForDisconnect(timeoutMs?: number): Promise<string>;
  close(): void;
}

const defaultTimeoutMs = 3000;

function withTimeout<T>(what: string, timeoutMs: number, start: (resolve: (value: T) => void, cleanup: (fn: () => void) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let undo = (): void => {};
    const timer = setTimeout(() => {
      undo();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    start(
      (value) => {
        clearTimeout(timer);
        undo();
        resolve(value);
      },
      (fn) => {
        undo = fn;
      },
    );
  });
}

export interface ConnectOptions {
  /** A Cookie header other than the client's (forged, stale). */
  cookie?: string;
  transport?: 'polling' | 'websocket';
  /** An Origin header, as a browser page would send it. */
  origin?: string;
  /** The root to trust for an https:// daemon (its own authority's). */
  ca?: string;
}

function openSocket(url: string, cookie: string | null, options: ConnectOptions): TopicSocket {
  const headers: Record<string, string> = {};
  if (cookie) headers.Cookie = cookie;
  if (options.origin) headers.Origin = options.origin;
  return io(url, {
    path: '/socket.io',
    transports: [options.transport ?? 'websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: headers,
    ...(options.ca ? { ca: options.ca } : {}),
  });
}

/** Connects and answers the socket once connected; rejects with the refusal's problem details (as `problem`). */
export async function connectSocket(url: string, client: TestClient | null, options: ConnectOptions = {}): Promise<TestSocket> {
  const socket = openSocket(url, options.cookie ?? client?.cookieHeader() ?? null, options);
  const events: TopicEvent[] = [];
  socket.on('event', (event) => events.push(event));
  let disconnectReason: string | null = null;
  socket.on('disconnect', (reason) => {
    disconnectReason = reason;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err: Error & { data?: ProblemDetails }) => {
      socket.close();
      reject(Object.assign(new Error(`socket refused: ${err.message}`), { problem: err.data }));
    });
  });
  return {
    socket,
    events,
    subscribe: (topic) => socket.timeout(defaultTimeoutMs).emitWithAck('subscribe', { topic }),
    subscribeRaw: (body) => socket.timeout(defaultTimeoutMs).emitWithAck('subscribe', body as { topic: string }),
    unsubscribe: (topic) => socket.timeout(defaultTimeoutMs).emitWithAck('unsubscribe', { topic }),
    nextEvent: (topic, timeoutMs = defaultTimeoutMs) =>
      withTimeout(`an event on ${topic}`, timeoutMs, (resolve, cleanup) => {
        const listener = (event: TopicEvent): void => {
          if (event.topic === topic) resolve(event);
        };
        socket.on('event', listener);
        cleanup(() => socket.off('event', listener));
      }),
    nextEnded: (topic, timeoutMs = defaultTimeoutMs) =>
      withTimeout(`topic.ended of ${topic}`, timeoutMs, (resolve, cleanup) => {
        const listener = (ended: TopicEnded): void => {
          if (ended.topic === topic) resolve(ended);
        };
        socket.on('topic.ended', listener);
        cleanup(() => socket.off('topic.ended', listener));
      }),
    waitForDisconnect: (timeoutMs = defaultTimeoutMs) =>
      withTimeout<string>('the socket to close', timeoutMs, (resolve, cleanup) => {
        if (disconnectReason !== null) return resolve(disconnectReason);
        const listener = (reason: string): void => resolve(reason);
        socket.once('disconnect', listener);
        cleanup(() => socket.off('disconnect', listener));
      }),
    close: () => socket.close(),
  };
}

/** Connects expecting a refusal; answers the problem details of `connect_error`. */
export async function expectRefused(url: string, client: TestClient | null, options: ConnectOptions = {}): Promise<ProblemDetails> {
  try {
    const s = await connectSocket(url, client, options);
    s.close();
  } catch (err) {
    const problem = (err as { problem?: ProblemDetails }).problem;
    if (!problem) throw err;
    return problem;
  }
  throw new Error('expected the socket to be refused, but it connected');
}

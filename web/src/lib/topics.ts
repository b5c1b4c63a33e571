import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type { ProblemDetails } from '../../../shared/src/errors/index.ts';
import { topics, type SubscribeAck, type TopicClientEvents, type TopicEvent, type TopicServerEvents, type TopicSpec } from '../../../shared/src/topics.ts';

type Topics = typeof topics;
export type TopicKind = keyof Topics;
type SnapshotOf<K extends TopicKind> = Topics[K] extends TopicSpec<infer S, unknown> ? S : never;
type EventOf<K extends TopicKind> = Topics[K] extends TopicSpec<unknown, infer E> ? E : never;
type TopicSocket = Socket<TopicServerEvents, TopicClientEvents>;

export interface TopicHandlers<K extends TopicKind> {
  /** The topic's current state, after each (re)subscription where the topic has one. */
  snapshot?(snapshot: SnapshotOf<K>): void;
  event(event: EventOf<K>): void;
  /** The box refused or stopped the topic (for example auth.permission.denied); it is dropped. */
  ended?(problem: ProblemDetails): void;
}

interface Listener {
  snapshot?(snapshot: unknown): void;
  event(event: unknown): void;
  ended?(problem: ProblemDetails): void;
}

export interface TopicClientOptions {
  /** Where the daemon is; the page's own origin when absent. */
  url?: string;
  socket?: Partial<ManagerOptions & SocketOptions>;
  /**
   * Asked after the box closed the connection itself (sign-out, a restart): true connects
   * again, false stays closed, null (the box is unreachable) asks again a little later.
   */
  sessionAlive?(): Promise<boolean | null>;
}

const ackTimeoutMs = 10_000;
const retryDelaysMs = [500, 1000, 2000, 5000, 10_000];

/**
 * The live-topic client: connects on the first subscription and subscribes every topic
 * again after each reconnect, since the server forgets them with the old connection.
 */
export class TopicClient {
  private socket: TopicSocket | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly options: TopicClientOptions = {}) {}

  subscribe<K extends TopicKind>(kind: K, topic: string, handlers: TopicHandlers<K>): () => void {
    if (!topics[kind].pattern.test(topic)) throw new Error(`${topic} is not a ${String(kind)} topic`);
    const listener = handlers as Listener;
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    const socket = this.connect();
    if (socket.connected) this.send(socket, topic, set.size === 1 ? undefined : listener);
    return () => this.drop(topic, listener);
  }

  /** Whether the live connection is up (a status light; subscriptions survive outages). */
  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /** Stops every topic and closes the connection (sign-out). */
  close(): void {
    this.listeners.clear();
    const socket = this.socket;
    this.socket = null;
    socket?.disconnect();
  }

  private connect(): TopicSocket {
    if (this.socket) return this.socket;
    // Same origin: the browser sends the session cookie by itself.
    const socketOptions = { path: '/socket.io', ...this.options.socket };
    const socket: TopicSocket = this.options.url ? io(this.options.url, socketOptions) : io(socketOptions);
    socket.on('connect', () => {
      for (const topic of this.listeners.keys()) this.send(socket, topic);
    });
    socket.on('event', (event: TopicEvent) => {
      for (const listener of this.listeners.get(event.topic) ?? []) listener.event({ type: event.type, data: event.data });
    });
    socket.on('topic.ended', ({ topic, problem }) => this.end(topic, problem));
    socket.on('disconnect', (reason) => {
      // Socket.IO reconnects by itself after a lost connection, but not after the server closed it.
      if (reason === 'io server disconnect') void this.reconnectIfAllowed(socket);
    });
    this.socket = socket;
    return socket;
  }

  private async reconnectIfAllowed(socket: TopicSocket): Promise<void> {
    for (let attempt = 0; this.socket === socket; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[Math.min(attempt, retryDelaysMs.length - 1)]));
      if (this.socket !== socket) return;
      const alive = this.options.sessionAlive ? await this.options.sessionAlive() : true;
      if (alive === false) return;
      if (alive && this.socket === socket) {
        socket.connect();
        return;
      }
    }
  }

  /** Subscribes a topic; the snapshot goes to one new listener, or to all after a (re)subscription. */
  private send(socket: TopicSocket, topic: string, only?: Listener): void {
    socket.timeout(ackTimeoutMs).emit('subscribe', { topic }, (err: Error | null, ack: SubscribeAck) => {
      // A timed-out ack means the connection dropped; the next connect subscribes again.
      if (err) return;
      if (!ack.ok) return this.end(topic, ack.problem);
      if (ack.snapshot === undefined) return;
      for (const listener of only ? [only] : (this.listeners.get(topic) ?? [])) listener.snapshot?.(ack.snapshot);
    });
  }

  private end(topic: string, problem: ProblemDetails): void {
    const set = this.listeners.get(topic);
    this.listeners.delete(topic);
    for (const listener of set ?? []) listener.ended?.(problem);
  }

  private drop(topic: string, listener: Listener): void {
    const set = this.listeners.get(topic);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(topic);
    if (this.socket?.connected) this.socket.emit('unsubscribe', { topic });
  }
}

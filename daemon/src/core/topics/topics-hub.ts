import type { Server as HttpServer } from 'node:http';
import type { RequestHandler } from 'express';
import { Server, type Socket } from 'socket.io';
import { maxTopicsPerSocket, type SubscribeAck, type TopicEvent, type TopicServerEvents, type UnsubscribeAck } from '../../../../shared/src/topics.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import type { Logger } from '../logger.ts';
import type { Principal, PrincipalResolver } from '../principal.ts';
import { ProblemError } from '../problem-error.ts';
import { runWithContext } from '../request-context.ts';
import { authenticateSocket, onHandshakeOnly, type SocketIdentity } from './socket-auth.ts';
import type { TopicProvider, TopicPublisher, TopicRechecker } from './topic-provider.ts';
import { messageId, parseTopicRequest, problemFor, problemOf } from './topic-messages.ts';

/** Client messages as they arrive: untrusted until parsed. */
interface IncomingEvents {
  subscribe: (body: unknown, ack?: unknown) => void;
  unsubscribe: (body: unknown, ack?: unknown) => void;
}

interface SocketState extends SocketIdentity {
  /** Topics the socket receives events of (it is in their rooms). */
  topics: Set<string>;
  /** Topics whose provider is still answering: events published meanwhile wait here and follow the ack. */
  pending: Map<string, PendingTopic>;
}

interface PendingTopic {
  events: TopicEvent[];
  /** Set when a re-check refused the topic before the subscribe answered: the ack carries it. */
  refused?: ProblemDetails;
}

type TopicSocket = Socket<IncomingEvents, TopicServerEvents, Record<string, never>, SocketState>;

export interface TopicsHubDeps {
  logger: Logger;
  /** Whether a session still lives; the sweep closes the sockets of expired ones. */
  sessionAlive(sessionId: string): Promise<boolean>;
  /** How often the sweep runs; expiry is the one way a session ends without an `ended` event. */
  sweepMs?: number;
}

const room = (topic: string): string => `topic:${topic}`;
const maxMessageBytes = 64 * 1024;

/**
 * The live topics hub: Socket.IO at /socket.io behind the session cookie. Areas register
 * a provider per topic family (who may read, what the snapshot is) and publish through
 * TopicPublisher; each event goes to the sockets in that topic's room only.
 */
export class TopicsHub implements TopicPublisher, TopicRechecker {
  private readonly providers: TopicProvider[] = [];
  private io: Server<IncomingEvents, TopicServerEvents, Record<string, never>, SocketState> | null = null;
  private resolvePrincipal: PrincipalResolver = async () => null;
  /** Sockets with a subscribe in flight; publish looks only at these besides the rooms. */
  private readonly subscribing = new Set<TopicSocket>();
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: TopicsHubDeps) {}

  register(provider: TopicProvider): void {
    this.providers.push(provider);
  }

  publish(topic: string, type: string, data: unknown): void {
    if (!this.io) return;
    const event: TopicEvent = { topic, type, data };
    this.io.to(room(topic)).emit('event', event);
    for (const socket of this.subscribing) socket.data.pending.get(topic)?.events.push(event);
  }

  /**
   * For topics every user reads their own version of under one name (`notifications`):
   * the event goes to that user's sockets only, never to the whole topic room.
   */
  publishToUser(userId: number, topic: string, type: string, data: unknown): void {
    const event: TopicEvent = { topic, type, data };
    for (const socket of this.sockets()) {
      if (socket.data.userId !== userId) continue;
      if (socket.data.topics.has(topic)) socket.emit('event', event);
      else socket.data.pending.get(topic)?.events.push(event);
    }
  }

  /** How many sockets hold or are subscribing to a topic, so an area can stop watching what nobody reads. */
  listenerCount(topic: string): number {
    const joined = this.io?.of('/').adapter.rooms.get(room(topic))?.size ?? 0;
    let subscribing = 0;
    for (const socket of this.subscribing) if (socket.data.pending.has(topic)) subscribing += 1;
    return joined + subscribing;
  }

  /** Serves Socket.IO on the daemon's HTTP server; the handshake reuses the HTTP session middleware. */
  attach(httpServer: HttpServer, sessionMiddleware: RequestHandler, resolvePrincipal: PrincipalResolver): void {
    this.resolvePrincipal = resolvePrincipal;
    // No cors option: only pages of the box itself may connect (the handshake checks Origin too).
    const io = new Server<IncomingEvents, TopicServerEvents, Record<string, never>, SocketState>(httpServer, {
      path: '/socket.io',
      serveClient: false,
      // Clients only send topic names; a large message is abuse, not use.
      maxHttpBufferSize: maxMessageBytes,
    });
    io.engine.use(onHandshakeOnly(sessionMiddleware));
    io.use(
      authenticateSocket(resolvePrincipal, this.deps.logger, (socket, identity) => {
        socket.data = { ...identity, topics: new Set(), pending: new Map() };
      }),
    );
    io.on('connection', (socket) => this.onConnection(socket));
    this.io = io;
    this.sweepTimer = setInterval(
      () =>
        void this.sweep().catch((err: unknown) =>
          this.deps.logger.warn('topic session sweep failed', { component: 'topics', error: err instanceof Error ? err.message : String(err) }),
        ),
      this.deps.sweepMs ?? 60_000,
    );
    this.sweepTimer.unref();
  }

  /** Disconnects every socket of a session (sign-out, ended or expired session). */
  closeSession(sessionId: string): void {
    for (const socket of this.sockets()) if (socket.data.sessionId === sessionId) socket.disconnect(true);
  }

  /**
   * Re-checks every topic a user's sockets hold (after a grant change or deactivation):
   * topics the user may no longer read stop with "topic.ended"; a user who is gone or
   * deactivated loses the connections.
   */
  async recheckUser(userId: number): Promise<void> {
    const sockets = this.sockets().filter((s) => s.data.userId === userId);
    if (sockets.length === 0) return;
    const found = await this.resolvePrincipal(userId);
    for (const socket of sockets) {
      if (!found) {
        socket.disconnect(true);
        continue;
      }
      const principal: Principal = { ...found, sessionId: socket.data.sessionId };
      for (const topic of new Set([...socket.data.topics, ...socket.data.pending.keys()])) {
        if (!(await this.mayRead(principal, topic))) this.end(socket, topic, problemFor('auth.permission.denied', messageId()));
      }
    }
  }

  /** recheckUser for everybody connected (a group's grants changed). */
  async recheckAll(): Promise<void> {
    for (const userId of new Set(this.sockets().map((s) => s.data.userId))) await this.recheckUser(userId);
  }

  /** Closes the sockets of sessions that expired (or vanished) without an `ended` event. */
  async sweep(): Promise<void> {
    try {
      for (const sessionId of new Set(this.sockets().map((s) => s.data.sessionId))) {
        if (!(await this.deps.sessionAlive(sessionId))) this.closeSession(sessionId);
      }
    } catch (err) {
      this.deps.logger.warn('topic session sweep failed', { component: 'topics', error: err instanceof Error ? err.message : String(err) });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    const io = this.io;
    this.io = null;
    if (!io) return;
    io.disconnectSockets(true);
    // Closes the engine (and with it open WebSockets) but leaves the HTTP server to the daemon.
    io.engine.close();
  }

  private sockets(): TopicSocket[] {
    return this.io ? [...this.io.of('/').sockets.values()] : [];
  }

  private provider(topic: string): TopicProvider | undefined {
    return this.providers.find((p) => p.pattern.test(topic));
  }

  private async mayRead(principal: Principal, topic: string): Promise<boolean> {
    try {
      return (await this.provider(topic)?.mayRead(principal, topic)) ?? false;
    } catch (err) {
      this.deps.logger.warn('topic re-check failed; the topic stops', { component: 'topics', topic, error: err instanceof Error ? err.message : String(err) });
      return false;
    }
  }

  private end(socket: TopicSocket, topic: string, problem: ProblemDetails): void {
    const pending = socket.data.pending.get(topic);
    // A subscribe still in flight answers the refusal in its ack instead of joining.
    if (pending) pending.refused = problem;
    else if (socket.data.topics.delete(topic)) {
      this.leave(socket, topic);
      socket.emit('topic.ended', { topic, problem });
    }
  }

  /** Leaves a topic's room; an adapter that answers with a promise may reject, which is logged. */
  private leave(socket: TopicSocket, topic: string): void {
    void Promise.resolve(socket.leave(room(topic))).catch((err: unknown) =>
      this.deps.logger.warn('topic room not left', { component: 'topics', topic, error: err instanceof Error ? err.message : String(err) }),
    );
  }

  private onConnection(socket: TopicSocket): void {
    const { logger } = this.deps;
    logger.debug('socket connected', { component: 'topics', userId: socket.data.userId, socketId: socket.id });
    socket.on('subscribe', (body, ack) => {
      const requestId = messageId();
      runWithContext({ requestId, userId: socket.data.userId }, () => {
        void this.subscribe(socket, body, requestId)
          .then(({ answer, backlog }) => {
            if (typeof ack === 'function') ack(answer);
            // The session or user is gone: the client learns why from the ack, then the socket closes.
            if (!answer.ok && answer.problem.code === 'auth.session.required') socket.disconnect(true);
            // After the ack, so the client has its snapshot before the changes that raced it.
            for (const event of backlog) socket.emit('event', event);
          })
          .catch((err: unknown) => logger.warn('subscribe not answered', { component: 'topics', error: err instanceof Error ? err.message : String(err) }));
      });
    });
    socket.on('unsubscribe', (body, ack) => {
      const answer = this.unsubscribe(socket, body);
      if (typeof ack === 'function') ack(answer);
    });
    socket.on('disconnect', (reason) => {
      this.subscribing.delete(socket);
      socket.data.pending.clear();
      logger.debug('socket disconnected', { component: 'topics', userId: socket.data.userId, socketId: socket.id, reason });
    });
  }

  /** The user as of now; a dead session or deactivated user is auth.session.required (and loses the connection). */
  private async principalOf(socket: TopicSocket): Promise<Principal> {
    const { userId, sessionId } = socket.data;
    const found = (await this.deps.sessionAlive(sessionId)) ? await this.resolvePrincipal(userId) : null;
    if (!found) throw new ProblemError('auth.session.required');
    return { ...found, sessionId };
  }

  private async subscribe(socket: TopicSocket, body: unknown, requestId: string): Promise<{ answer: SubscribeAck; backlog: TopicEvent[] }> {
    let topic: string | undefined;
    let buffer: PendingTopic | undefined;
    try {
      topic = parseTopicRequest(body).topic;
      const provider = this.provider(topic);
      if (!provider) throw new ProblemError('topics.topic.unknown', { topic });
      const { topics, pending } = socket.data;
      const joined = topics.has(topic);
      if (!joined && !pending.has(topic) && topics.size + pending.size >= maxTopicsPerSocket)
        throw new ProblemError('topics.subscriptions.too_many', { limit: maxTopicsPerSocket });
      // Buffer from before the principal is read: a re-check or event racing this subscribe sees it.
      if (!joined) {
        buffer = { events: [] };
        pending.set(topic, buffer);
        this.subscribing.add(socket);
      }
      const principal = await this.principalOf(socket);
      const snapshot = await provider.subscribe(principal, topic);
      const answer: SubscribeAck = snapshot === undefined ? { ok: true } : { ok: true, snapshot };
      // Already joined, or unsubscribed or disconnected meanwhile: answer, but do not join.
      if (!buffer || pending.get(topic) !== buffer || socket.disconnected) return { answer, backlog: [] };
      this.release(socket, topic);
      if (buffer.refused) return { answer: { ok: false, problem: buffer.refused }, backlog: [] };
      topics.add(topic);
      await socket.join(room(topic));
      return { answer, backlog: buffer.events };
    } catch (err) {
      if (topic !== undefined) {
        if (buffer && socket.data.pending.get(topic) === buffer) this.release(socket, topic);
        // A refused re-subscribe also stops the subscription the socket held.
        if (err instanceof ProblemError && err.code === 'auth.permission.denied' && socket.data.topics.delete(topic)) this.leave(socket, topic);
      }
      return { answer: { ok: false, problem: problemOf(err, requestId, this.deps.logger) }, backlog: [] };
    }
  }

  private release(socket: TopicSocket, topic: string): void {
    socket.data.pending.delete(topic);
    if (socket.data.pending.size === 0) this.subscribing.delete(socket);
  }

  private unsubscribe(socket: TopicSocket, body: unknown): UnsubscribeAck {
    try {
      const { topic } = parseTopicRequest(body);
      socket.data.topics.delete(topic);
      this.release(socket, topic);
      this.leave(socket, topic);
      return { ok: true };
    } catch (err) {
      return { ok: false, problem: problemOf(err, messageId(), this.deps.logger) };
    }
  }
}

import type { Principal } from '../principal.ts';

/**
 * An area's live topic family, registered with the topics hub: who may read a topic
 * and what its current state is. Refusals throw a ProblemError (auth.permission.denied,
 * jobs.job.not_found, ...), which the hub sends back in the subscribe ack.
 */
export interface TopicProvider {
  /** Matches the concrete topic names of this family, for example /^jobs\/\d+$/. */
  pattern: RegExp;
  /** Throws when the principal may not read the topic; answers the snapshot (or undefined). */
  subscribe(principal: Principal, topic: string): Promise<unknown>;
  /** Re-checked for open subscriptions when grants or sessions change; false stops the topic. */
  mayRead(principal: Principal, topic: string): Promise<boolean>;
}

/** How services publish: domain events by topic name. Services never touch sockets. */
export interface TopicPublisher {
  publish(topic: string, type: string, data: unknown): void;
}

/**
 * How areas whose grants change (shares, apps, users, groups) make open subscriptions
 * follow at once: topics a user may no longer read stop with "topic.ended".
 */
export interface TopicRechecker {
  recheckUser(userId: number): Promise<void>;
  /** After a change that touches many users at once (a group's grants). */
  recheckAll(): Promise<void>;
}

import { topicName, topics } from '../../../../../shared/src/topics.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { Logger } from '../../../core/logger.ts';
import type { TopicProvider, TopicPublisher } from '../../../core/topics/topic-provider.ts';
import type { IdentityEvents } from '../users/host-effects.ts';
import type { Rights } from './rights.ts';

export interface GrantsTopicDeps {
  rights: Rights;
  publisher: TopicPublisher;
  /** Re-checks the open topics of a user (or of everybody) after a change of rights. */
  recheck(userIds: readonly number[] | 'all'): Promise<void>;
  allUserIds(): Promise<number[]>;
  logger: Pick<Logger, 'warn'>;
}

/** `users/<id>/grants`: a user's effective rights, pushed to that user's desktop when they change. */
export class GrantsTopic implements TopicProvider, IdentityEvents {
  readonly pattern = topics.userGrants.pattern;

  constructor(private readonly deps: GrantsTopicDeps) {}

  private ownerOf(topic: string): number {
    return Number(topic.split('/')[1]);
  }

  async subscribe(principal: Principal, topic: string): Promise<unknown> {
    if (this.ownerOf(topic) !== principal.id) throw new ProblemError('auth.permission.denied');
    return this.deps.rights.effective(principal.id);
  }

  async mayRead(principal: Principal, topic: string): Promise<boolean> {
    return this.ownerOf(topic) === principal.id;
  }

  rightsChanged(userIds: readonly number[] | 'all'): void {
    void this.push(userIds).catch((err: unknown) =>
      this.deps.logger.warn('grants not pushed', { component: 'permissions', error: err instanceof Error ? err.message : String(err) }),
    );
  }

  private async push(userIds: readonly number[] | 'all'): Promise<void> {
    const ids = userIds === 'all' ? await this.deps.allUserIds() : userIds;
    for (const id of ids) {
      const data = await this.deps.rights.effective(id);
      // A deleted or deactivated user has no desktop left to tell; the re-check closes it.
      if (data) this.deps.publisher.publish(topicName.userGrants(id), 'changed', data);
    }
    await this.deps.recheck(userIds);
  }
}

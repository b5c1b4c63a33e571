import { topics } from '../../../../../shared/src/topics.ts';
import type { Principal } from '../../../core/principal.ts';
import type { TopicProvider } from '../../../core/topics/topic-provider.ts';

export interface ThumbnailsTopicDeps {
  /** Throws fs.share.not_found unless the caller may read the share (the same check as the file routes). */
  shareFolder(principal: Principal, shareId: number, need: 'read'): Promise<string>;
  mayRead(principal: Principal, shareId: number): Promise<boolean>;
}

function shareIdOf(topic: string): number {
  return Number(topic.slice('thumbnails/'.length));
}

/** `thumbnails/<shareId>`: announcements of queued thumbnails, for everyone who may read the share. */
export function thumbnailsTopic(deps: ThumbnailsTopicDeps): TopicProvider {
  return {
    pattern: topics.thumbnails.pattern,
    async subscribe(principal, topic) {
      await deps.shareFolder(principal, shareIdOf(topic), 'read');
      return undefined;
    },
    mayRead: (principal, topic) => deps.mayRead(principal, shareIdOf(topic)),
  };
}

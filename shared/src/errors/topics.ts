import { defineErrors } from './catalog-entry.ts';

/** Refusals of the live topics hub (Socket.IO), answered in a subscribe ack. */
export const topicErrors = defineErrors({
  'topics.topic.unknown': { status: 404, title: 'There is no such live topic', params: ['topic'] },
  'topics.subscriptions.too_many': { status: 429, title: 'Too many live topics on one connection', params: ['limit'] },
});

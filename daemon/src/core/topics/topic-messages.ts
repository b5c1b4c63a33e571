import { randomUUID } from 'node:crypto';
import Joi from 'joi';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import type { TopicRequest } from '../../../../shared/src/topics.ts';
import { problemBody, toProblemError } from '../problem-body.ts';
import type { Logger } from '../logger.ts';
import { ProblemError } from '../problem-error.ts';
import { validatePart } from '../validate.ts';

/**
 * Topic names may carry a folder path (`files/3/Photos/2024`), so any printable text up to
 * a path's length plus its prefix; each provider's pattern decides the rest.
 */
const topicRequestSchema = Joi.object<TopicRequest, true>({
  topic: Joi.string()
    .max(4200)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    .pattern(/^[^\x00-\x1f\x7f]+$/)
    .required(),
}).id('TopicRequest');

/** Validates the body of "subscribe" and "unsubscribe" (request.body.invalid with field errors). */
export function parseTopicRequest(body: unknown): TopicRequest {
  return validatePart(topicRequestSchema, body, 'request.body.invalid', false);
}

/**
 * A socket message has no HTTP request id, so each one gets its own: the problem it
 * answers and the log entries it causes can still be matched.
 */
export function messageId(): string {
  return randomUUID();
}

/** Turns whatever a message handler threw into problem details; the unexpected is logged and answered without internals. */
export function problemOf(err: unknown, requestId: string, logger: Logger): ProblemDetails {
  const problem = toProblemError(err);
  if (problem.status >= 500) {
    const cause = problem.cause ?? err;
    logger.error('topic message failed', {
      component: 'topics',
      error: cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack } : String(cause),
    });
  }
  return problemBody(problem, requestId);
}

export function problemFor(code: ProblemError['code'], requestId: string, params?: Record<string, unknown>): ProblemDetails {
  return problemBody(new ProblemError(code, params), requestId);
}

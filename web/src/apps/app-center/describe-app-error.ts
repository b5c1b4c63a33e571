import { ApiError } from '../../../../shared/src/client.ts';
import { describeError, i18n } from '../../lib/i18n/i18n.svelte.ts';
import { appProblemMessage } from './package-problems.ts';

/** Like describeError, with a sentence per reason for the refusals of a package. */
export function describeAppError(err: unknown): string {
  return err instanceof ApiError ? appProblemMessage(i18n.language, err.problem) : describeError(err);
}

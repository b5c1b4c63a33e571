import { ApiError } from '../../../shared/src/client.ts';
import { describeError, t } from './i18n/i18n.svelte.ts';

const weakReasons = {
  too_short: 'error.auth.password.weak.too_short',
  same_as_username: 'error.auth.password.weak.same_as_username',
  common: 'error.auth.password.weak.common',
} as const;

/**
 * Like describeError, but a refused password names the rule it broke (auth.password.weak
 * carries params.reason), so the user knows what to change.
 */
export function describePasswordError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'auth.password.weak') {
    const reason = err.problem.params?.reason;
    if (typeof reason === 'string' && reason in weakReasons) {
      return t(weakReasons[reason as keyof typeof weakReasons], { minLength: err.problem.params?.minLength ?? 10 });
    }
  }
  return describeError(err);
}

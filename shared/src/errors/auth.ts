import { defineErrors } from './catalog-entry.ts';

export const authErrors = defineErrors({
  'auth.credentials.invalid': { status: 401, title: 'The user name or password is wrong' },
  'auth.login.throttled': { status: 429, title: 'Too many failed sign-ins; try again later', params: ['retryAfter'] },
  'auth.session.required': { status: 401, title: 'Sign in first' },
  'auth.csrf.invalid': { status: 403, title: 'The request lacks a valid CSRF token' },
  'auth.origin.invalid': { status: 403, title: 'The request comes from another site' },
  'auth.permission.denied': { status: 403, title: 'You may not do this' },
});

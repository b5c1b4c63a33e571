import { defineErrors } from './catalog-entry.ts';

export const authErrors = defineErrors({
  'auth.credentials.invalid': { status: 401, title: 'The user name or password is wrong' },
  'auth.login.throttled': { status: 429, title: 'Too many failed sign-ins; try again later', params: ['retryAfter'] },
  'auth.session.required': { status: 401, title: 'Sign in first' },
  'auth.csrf.invalid': { status: 403, title: 'The request lacks a valid CSRF token' },
  'auth.origin.invalid': { status: 403, title: 'The request comes from another site' },
  'auth.permission.denied': { status: 403, title: 'You may not do this' },
  'auth.totp.pending_missing': { status: 401, title: 'No sign-in waits for a code (or it waited longer than 5 minutes); sign in with the password again' },
  'auth.totp.invalid': { status: 401, title: 'The code is wrong' },
  'auth.totp.reused': { status: 401, title: 'This code was used already; wait for the next one' },
  'auth.totp.already_enabled': { status: 409, title: 'Two-step sign-in is already on; turn it off first' },
  'auth.totp.not_enrolling': { status: 409, title: 'Start the enrolment first' },
  'auth.totp.not_enabled': { status: 409, title: 'Two-step sign-in is not on' },
  'auth.recovery.invalid': { status: 401, title: 'The recovery code is wrong or was used already' },
  'auth.password.wrong': { status: 403, title: 'The current password is wrong' },
  'auth.password.weak': { status: 400, title: 'The password does not meet the password rules', params: ['reason', 'minLength'] },
});

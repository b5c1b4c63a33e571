import { defineErrors } from './catalog-entry.ts';

/** Codes of the first-run setup (`setup.*`). */
export const firstRunErrors = defineErrors({
  'setup.code.invalid': { status: 403, title: 'The setup code is not right', params: [] },
  'setup.code.expired': { status: 403, title: 'The setup code has ended: restart the service for a new one', params: [] },
  'setup.done': { status: 409, title: 'This box is set up already: sign in instead', params: [] },
});

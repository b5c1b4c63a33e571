import { defineErrors } from './catalog-entry.ts';

export const logErrors = defineErrors({
  'logs.cursor.invalid': { status: 400, title: 'The cursor is not one this list handed out' },
  'logs.range.invalid': { status: 400, title: 'The time range ends before it starts', params: ['from', 'to'] },
  'logs.archive.no_pool': { status: 409, title: 'No pool can hold the log archive', params: ['pool'] },
});

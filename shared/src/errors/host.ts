import { defineErrors } from './catalog-entry.ts';

/** Codes of the machine itself (`host.*`). */
export const hostErrors = defineErrors({
  // A state, not a crash: the machine lacks a program; params say which, what it is for and which Debian package brings it.
  'host.tool.missing': { status: 503, title: 'A program this needs is not installed on the box', params: ['tool', 'feature', 'package'] },
});

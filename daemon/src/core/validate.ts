import type Joi from 'joi';
import type { ErrorCode } from '../../../shared/src/errors/index.ts';
import { ProblemError } from './problem-error.ts';

export interface FieldError {
  path: string;
  message: string;
}

function fieldErrors(error: Joi.ValidationError): FieldError[] {
  return error.details.map((d) => ({ path: d.path.join('.'), message: d.message }));
}

/**
 * Control characters but tab, line feed and carriage return: no name, label or text of the API
 * holds them, and a NUL cuts strings short in C libraries, SQLite and file names.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const controlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

interface PathNode {
  key: string;
  up: PathNode | null;
}

function pathOf(node: PathNode | null): string {
  const keys: string[] = [];
  for (let n = node; n; n = n.up) keys.push(n.key);
  return keys.reverse().join('.');
}

/**
 * Every string (and object key) of a parsed request part that holds a control character. A loop
 * with linked paths, not recursion: a body nested 20,000 levels deep costs linear time and no stack.
 */
export function controlCharacterErrors(value: unknown): FieldError[] {
  const out: FieldError[] = [];
  const refuse = (at: PathNode | null) => out.push({ path: pathOf(at), message: 'must not contain control characters' });
  const todo: [unknown, PathNode | null][] = [[value, null]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [item, at] = next;
    if (typeof item === 'string') {
      if (controlCharacter.test(item)) refuse(at);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        const node = { key, up: at };
        if (controlCharacter.test(key)) refuse(node);
        todo.push([inner, node]);
      }
    }
  }
  return out;
}

/**
 * Deeper than any request of the API nests. Joi, JSON.stringify and SQLite's JSON functions
 * recurse, so a value of any shape (a desktop layout) nested 20,000 levels would overflow the stack.
 */
export const maxNesting = 64;

/** The first object or array nested deeper than `max` levels, as a field error; a loop, like the walk above. */
export function nestingErrors(value: unknown, max = maxNesting): FieldError[] {
  const todo: [unknown, PathNode | null, number][] = [[value, null, 0]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [item, at, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return [{ path: pathOf(at), message: `must not nest deeper than ${max} levels` }];
    for (const [key, inner] of Object.entries(item)) todo.push([inner, { key, up: at }, depth + 1]);
  }
  return [];
}

/**
 * Validates one part of a request; failures answer 400 with every field's message. Control
 * characters and nesting past `maxNesting` are refused in every part, whatever its schema.
 */
export function validatePart<T>(schema: Joi.Schema<T>, value: unknown, code: ErrorCode, convert: boolean): T {
  const controls = [...controlCharacterErrors(value), ...nestingErrors(value)];
  if (controls.length > 0) throw new ProblemError(code, { errors: controls }, { detail: controls.map((e) => `${e.path}: ${e.message}`).join('; ') });
  const { value: out, error } = schema.validate(value, { abortEarly: false, convert, errors: { wrap: { label: false } } });
  if (error) throw new ProblemError(code, { errors: fieldErrors(error) }, { detail: error.details.map((d) => d.message).join('; ') });
  return out as T;
}

/** In tests every JSON answer is checked against its schema, so the documented shapes cannot drift. */
export function checkResponse(schema: Joi.Schema, value: unknown, routeId: string): void {
  const { error } = schema.validate(value, { abortEarly: false, convert: false });
  if (error)
    throw new Error(
      `Answer of ${routeId} breaks its schema: ${fieldErrors(error)
        .map((e) => `${e.path}: ${e.message}`)
        .join('; ')}`,
    );
}

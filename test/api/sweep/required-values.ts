import fc from 'fast-check';
import { seed } from './hostile-values.ts';
import type { JsonSchema, resolver } from './openapi-walk.ts';

type Resolve = ReturnType<typeof resolver>;

// eslint-disable-next-line no-control-regex -- the daemon refuses them everywhere; a minimal body should reach the service
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/** A string that fits the schema's pattern, length and format; fast-check draws pattern matches with the sweep's seed. */
function stringFor(schema: JsonSchema): string {
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 64;
  if (schema.format === 'date-time') return new Date(0).toISOString();
  if (!schema.pattern) return 'a'.repeat(Math.max(min, 1));
  const fits = (v: string) => v.length >= min && v.length <= max && !controlCharacter.test(v);
  return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed, numRuns: 50 }).find(fits) ?? 'a';
}

/** The alternatives of a schema that can hold a value (joi-to-json writes `{ not: {} }` for "never"). */
function alternatives(schema: JsonSchema): JsonSchema[] {
  return (schema.anyOf ?? schema.oneOf ?? []).filter((s) => s.not === undefined);
}

/** A value that fits `schema`, holding only the required fields of every object: what a minimal client sends. */
export function requiredOnly(raw: JsonSchema | undefined, resolve: Resolve): unknown {
  const schema = resolve(raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== 'null' && t !== undefined);
  if (type.length === 0) {
    const [first] = alternatives(schema);
    return first ? requiredOnly(first, resolve) : {};
  }
  switch (type[0]) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = requiredOnly(schema.properties?.[name], resolve);
      return out;
    }
    case 'array':
      // uniqueItems holds: every item is built the same way, so more than one would repeat.
      return Array.from({ length: Math.min(schema.minItems ?? 0, 1) }, () => requiredOnly(schema.items, resolve));
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(1, schema.maximum ?? 1));
    case 'boolean':
      return false;
    default:
      return stringFor(schema);
  }
}

/** One minimal body per alternative of an operation's body schema (a plan request is one of several kinds). */
export function requiredOnlyBodies(body: JsonSchema, resolve: Resolve): unknown[] {
  const schema = resolve(body);
  const options = schema.type === undefined ? alternatives(schema) : [];
  return options.length > 0 ? options.map((s) => requiredOnly(s, resolve)) : [requiredOnly(schema, resolve)];
}

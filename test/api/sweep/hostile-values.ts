import fc from 'fast-check';
import type { JsonSchema, Operation } from './openapi-walk.ts';

/** One request of the sweep: what it breaks, the path and query it sends, its body and content type. */
export interface HostileRequest {
  what: string;
  path: string;
  query: string;
  body?: string;
  contentType?: string;
}

/**
 * The sweep's seed and size: fixed in `npm test` so a failure is the same on every run;
 * `npm run fuzz` sets SWEEP_SEED (random) and SWEEP_RUNS (more) and prints the seed.
 */
export const seed = Number(process.env.SWEEP_SEED ?? 20261125);
export const runs = Number(process.env.SWEEP_RUNS ?? 2);

const hostileSegments = ['0', '-1', '9007199254740993', '1e400', 'abc', '1.5', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%00', '%E2%80%AE', 'x'.repeat(4096)];

/** Generators of values of each JSON type, so a wrong value is drawn only from the types a schema refuses. */
const valuesOfType: Record<string, fc.Arbitrary<unknown>> = {
  integer: fc.integer(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Number.isInteger(v)),
  string: fc.string({ maxLength: 40 }),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.integer(), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 3 }),
};

/**
 * Values that are wrong for a schema of `type` (fast-check picks them, the seed fixes them). None for
 * a schema that takes every type: filtering a generator down to nothing would never end.
 */
function wrongFor(schema: JsonSchema, count: number, at: number): unknown[] {
  const declared = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is string => typeof t === 'string');
  if (declared.length === 0) return [];
  // A number schema takes integers too.
  const allowed = new Set(declared.includes('number') ? [...declared, 'integer'] : declared);
  const wrong = Object.entries(valuesOfType)
    .filter(([type]) => !allowed.has(type))
    .map(([, arbitrary]) => arbitrary);
  if (wrong.length === 0) return [];
  return fc.sample(fc.oneof(...wrong), { seed: seed + at, numRuns: count });
}

/** Path parameter values: numbers out of range, non-numbers, encoded slashes and dots, NUL, RTL mark, 4 KiB. */
export function pathCases(op: Operation, base: (name: string) => string): HostileRequest[] {
  const out: HostileRequest[] = [];
  for (const name of op.pathParams) {
    for (const value of hostileSegments) {
      out.push({
        what: `path ${name}=${value.slice(0, 20)}`,
        path: op.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === name ? value : base(n))),
        query: requiredQuery(op),
      });
    }
  }
  return out;
}

/** A valid-looking value for each required query parameter, so the others can be broken one at a time. */
export function requiredQuery(op: Operation): string {
  return op.query
    .filter((q) => q.required)
    .map((q) => `${q.name}=${q.schema.type === 'integer' || q.schema.type === 'number' ? '1' : q.schema.enum ? String(q.schema.enum[0]) : 'x'}`)
    .join('&');
}

/** Query values of the wrong type, repeated, bracketed, with a NUL, 4 KiB long. */
export function queryCases(op: Operation, path: string): HostileRequest[] {
  const out: HostileRequest[] = [];
  const rest = (name: string) =>
    requiredQuery(op)
      .split('&')
      .filter((p) => p && !p.startsWith(`${name}=`));
  for (const [i, q] of op.query.entries()) {
    const wrong = wrongFor(q.schema, runs, i).map((v) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v)));
    for (const value of [...wrong, '1&' + q.name + '=2', '%00', 'x'.repeat(4096)])
      out.push({ what: `query ${q.name}`, path, query: [...rest(q.name), `${q.name}=${value}`].join('&') });
    out.push({ what: `query ${q.name}[a]`, path, query: [...rest(q.name), `${q.name}[a]=1`].join('&') });
  }
  return out;
}

/** Bodies that break the schema: broken JSON, wrong top-level types, missing fields, each field wrong, deep nesting, prototype keys, controls, 1 MiB, wrong content type. */
export function bodyCases(op: Operation, path: string, resolve: (s: JsonSchema | undefined) => JsonSchema): HostileRequest[] {
  if (!op.body) return [];
  const query = requiredQuery(op);
  const json = (what: string, value: unknown): HostileRequest => ({ what, path, query, body: JSON.stringify(value) });
  const out: HostileRequest[] = [
    { what: 'broken JSON', path, query, body: '{"a": [1, 2' },
    json('null', null),
    json('an array', [1, 2]),
    json('a string', 'text'),
    { what: '20,000 levels of nesting', path, query, body: '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) },
    { what: 'prototype keys', path, query, body: '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}' },
    { what: 'a wrong content type', path, query, body: '{}', contentType: 'text/plain' },
  ];
  const schema = resolve(op.body);
  const properties = Object.entries(schema.properties ?? {});
  if ((schema.required ?? []).length > 0) out.push(json('missing required fields', {}));
  for (const [i, [name, property]] of properties.entries()) {
    for (const value of wrongFor(resolve(property), runs, 100 + i)) out.push(json(`field ${name} of a wrong type`, { [name]: value }));
    out.push(json(`field ${name} with control characters`, { [name]: 'a\u0000b\u001b[31m' }));
  }
  const firstString = properties.find(([, p]) => resolve(p).type === 'string');
  if (firstString) out.push(json(`field ${firstString[0]} of 1 MiB`, { [firstString[0]]: 'x'.repeat(1024 * 1024) }));
  return out;
}

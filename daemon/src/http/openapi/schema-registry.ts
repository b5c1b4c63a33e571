import { isDeepStrictEqual } from 'node:util';
import type Joi from 'joi';
import parse from 'joi-to-json';
import { finishSchema, rewriteDescription } from './joi-rewrite.ts';

/** A JSON Schema (OpenAPI 3.1 dialect) as joi-to-json produces it. */
export type JsonSchema = Record<string, unknown>;

type Description = Record<string, unknown> & { type?: string; flags?: Record<string, unknown>; allow?: unknown[] };

const componentPrefix = '#/components/schemas/';

function isDescription(x: unknown): x is Description {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * `named.allow(null)` keeps the name, so joi-to-json would overwrite the shared component with
 * a nullable one. Such a node becomes "the component, or null" instead, leaving the component intact.
 */
function splitNullableNamed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(splitNullableNamed);
  if (!isDescription(node)) return node;
  const out: Description = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'allow' ? value : splitNullableNamed(value);
  if (typeof out.type !== 'string' || !out.flags?.id || !out.allow?.includes(null)) return out;
  const allow = out.allow.filter((v) => v !== null);
  // Presence (required or optional) belongs to the use, not to the component.
  const { presence, ...innerFlags } = out.flags;
  const inner: Description = { ...out, flags: innerFlags };
  if (allow.length > 0) inner.allow = allow;
  else delete inner.allow;
  return {
    type: 'alternatives',
    flags: presence === undefined ? {} : { presence },
    matches: [{ schema: inner }, { schema: { type: 'any', flags: { only: true }, allow: [null] } }],
  };
}

/**
 * Converts joi schemas to OpenAPI 3.1 schemas and collects every schema named with `.id('Name')`
 * as a component, referenced with `$ref` wherever it is used.
 */
export class SchemaRegistry {
  readonly components: Record<string, JsonSchema> = {};
  /** Names declared twice with different shapes: a mistake in the route tables that the tests catch. */
  readonly conflicts = new Set<string>();
  /** What the route tables say that the document cannot carry (joi-rewrite.ts): fix the schema or teach the rewrite. */
  readonly undocumented = new Set<string>();

  convert(schema: Joi.Schema): JsonSchema {
    const description = splitNullableNamed(rewriteDescription(schema.describe(), (problem) => this.undocumented.add(problem)));
    const found: Record<string, JsonSchema> = {};
    const converted = finishSchema(parse({ describe: () => description } as unknown as Joi.Schema, 'open-api-3.1', found)) as JsonSchema;
    // At the top level joi-to-json attaches the shared definitions to the schema itself.
    delete converted.schemas;
    for (const [name, raw] of Object.entries(found)) {
      const component = finishSchema(raw) as JsonSchema;
      const known = this.components[name];
      if (known && !isDeepStrictEqual(known, component)) this.conflicts.add(name);
      else this.components[name] = component;
    }
    return converted;
  }

  /** The schema itself when it is a `$ref` to a component. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith(componentPrefix)) return this.components[ref.slice(componentPrefix.length)] ?? schema;
    return schema;
  }
}

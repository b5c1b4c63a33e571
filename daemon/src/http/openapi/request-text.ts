import { controlCharacter, maxNesting } from '../../core/validate.ts';
import type { JsonSchema } from './schema-registry.ts';

/** The daemon's refusal of control characters (validate.ts) as a pattern: the same class, negated. */
export const noControlCharacters = `^[^${controlCharacter.source.slice(1, -1)}]*$`;

export const requestTextName = 'RequestText';
const requestTextRef = { $ref: `#/components/schemas/${requestTextName}` };

/**
 * The rule every request part meets before its own schema (validatePart): no string or key holds a
 * control character but tab, line feed and carriage return, at any depth. `if`/`then`/`else` so that
 * it constrains values of every type without giving generated clients a type of its own.
 */
export const requestText: JsonSchema = {
  description: `Every string and object key of a request, at any depth: no control characters but tab, line feed and carriage return. Requests also nest at most ${maxNesting} levels.`,
  if: { type: 'string' },
  then: { pattern: noControlCharacters },
  else: { propertyNames: { pattern: noControlCharacters }, additionalProperties: requestTextRef, items: requestTextRef },
};

/** A request part's schema with the rule above: strings take the pattern, other values the component. */
export function withRequestText(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (type === 'integer' || type === 'number' || type === 'boolean') return schema;
  if (type === 'string' && schema.pattern === undefined && schema.enum === undefined && schema.const === undefined)
    return { ...schema, pattern: noControlCharacters };
  if (schema.enum !== undefined || schema.const !== undefined) return schema;
  return { allOf: [schema, requestTextRef] };
}

/** The operations of the OpenAPI document the daemon serves, as the sweep walks them. */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  allOf?: JsonSchema[];
};

export interface Operation {
  id: string;
  method: string;
  /** The path template, `{name}` for parameters. */
  path: string;
  access: string;
  codes: string[];
  pathParams: string[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body's schema, resolved; null for none or a raw body. */
  body: JsonSchema | null;
  rawBody: boolean;
  stateChanging: boolean;
  csrf: boolean;
}

interface Document {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** A schema with its top-level $ref followed (nested ones are followed by the generators as they go), and the RequestText rule set aside. */
export function resolver(doc: Document): (schema: JsonSchema | undefined) => JsonSchema {
  return function resolve(schema) {
    if (!schema) return {};
    if (schema.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop() as string]);
    // A request part's own schema beside the rule every request meets (RequestText): the generators take the former.
    const [own, rule, ...more] = schema.allOf ?? [];
    if (own && rule?.$ref?.endsWith('/RequestText') && more.length === 0) return resolve(own);
    return schema;
  };
}

export function operationsOf(doc: Document): Operation[] {
  const resolve = resolver(doc);
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        operationId: string;
        'x-access': string;
        'x-error-codes': string[];
        parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema?: JsonSchema }> };
        description?: string;
      };
      const params = op.parameters ?? [];
      const json = op.requestBody?.content['application/json']?.schema;
      const verb = method.toUpperCase();
      out.push({
        id: op.operationId,
        method: verb,
        path,
        access: op['x-access'],
        codes: op['x-error-codes'],
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: resolve(p.schema), required: p.required === true })),
        body: json ? resolve(json) : null,
        rawBody: op.requestBody !== undefined && !json,
        stateChanging: verb !== 'GET',
        csrf: op['x-error-codes'].includes('auth.csrf.invalid'),
      });
    }
  }
  return out;
}

/** The path with each parameter replaced by `value(name)` (already encoded by the caller where needed). */
export function fillPath(op: Operation, value: (name: string) => string): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
}

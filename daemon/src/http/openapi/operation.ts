import type Joi from 'joi';
import type { Access, RawBody, RouteDef } from '../../../../shared/src/api/route.ts';
import { isRaw } from '../register-routes.ts';
import { errorResponses, isStateChanging, needsCsrf, routeErrorCodes } from './route-errors.ts';
import { withRequestText } from './request-text.ts';
import type { JsonSchema, SchemaRegistry } from './schema-registry.ts';

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
  style?: string;
  explode?: boolean;
};

const accessLabels: Record<string, string> = {
  public: 'Pub: anyone, without a session',
  user: 'Usr: a signed-in user',
  admin: 'Adm: an administrator',
  app: 'an installed app’s window, with its host token as `Authorization: Bearer` (the session cookie is not enough)',
};

export function accessLabel(access: Access): string {
  if (access.startsWith('right:')) return `Usr with the right \`${access.slice('right:'.length)}\` (administrators hold every right)`;
  return accessLabels[access] ?? access;
}

/** Who may call: nothing for public routes; the session cookie, plus the CSRF header on state-changing requests. */
function security(route: RouteDef): Record<string, string[]>[] {
  const session: Record<string, string[]> = needsCsrf(route) ? { session: [], csrf: [] } : { session: [] };
  // A public route can be called without a session; a signed-in caller still sends the CSRF token.
  if (route.access === 'public') return needsCsrf(route) ? [{}, session] : [];
  if (route.access === 'app') return [{ appToken: [], appInstance: [] }];
  return [session];
}

/**
 * A parameter that another one makes required (`x.when('home', { is: 'move', then: Joi.required() })`):
 * OpenAPI has no conditions between parameters, so its description says it.
 */
function conditionalRequirement(converted: JsonSchema, name: string): string | undefined {
  type Condition = { if?: { properties?: Record<string, { enum?: unknown[] }> }; then?: { required?: string[] } };
  for (const c of (converted.allOf ?? []) as Condition[]) {
    const [other, test] = Object.entries(c.if?.properties ?? {})[0] ?? [];
    if (other && test?.enum && c.then?.required?.includes(name)) return `Required when ${other} is ${test.enum.join(' or ')}.`;
  }
  return undefined;
}

function objectParameters(registry: SchemaRegistry, schema: Joi.ObjectSchema, where: 'path' | 'query'): Parameter[] {
  const converted = registry.resolve(registry.convert(schema));
  const properties = (converted.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((converted.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const parameter: Parameter = { name, in: where, required: where === 'path' || required.has(name), schema: withRequestText(property) };
    const description = [property.description, conditionalRequirement(converted, name)].filter((d) => typeof d === 'string');
    if (description.length > 0) parameter.description = description.join(' ');
    // The daemon parses nested query objects (`filter[kind]=x`), which OpenAPI calls deepObject.
    if (where === 'query' && property.type === 'object') Object.assign(parameter, { style: 'deepObject', explode: true });
    return parameter;
  });
}

function parameters(registry: SchemaRegistry, route: RouteDef): Parameter[] {
  const list: Parameter[] = route.params ? objectParameters(registry, route.params, 'path') : [];
  // OpenAPI requires every template parameter to be declared, even where the route has no params schema.
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    if (name && !list.some((p) => p.name === name)) list.push({ name, in: 'path', required: true, schema: withRequestText({ type: 'string' }) });
  }
  if (route.query) list.push(...objectParameters(registry, route.query, 'query'));
  for (const header of route.headers ?? []) list.push({ name: header, in: 'header', required: false, schema: { type: 'string' } });
  return list;
}

function rawContent(raw: RawBody): Record<string, unknown> {
  // A raw JSON answer is still an object; any other raw body is bytes of its media type.
  return Object.fromEntries([raw.contentType].flat().map((type) => [type, type === 'application/json' ? { schema: { type: 'object' } } : {}]));
}

function requestBody(registry: SchemaRegistry, body: RouteDef['body']): Record<string, unknown> | undefined {
  if (!body) return undefined;
  if (isRaw(body)) return { required: true, content: rawContent(body) };
  const schema = registry.convert(body);
  const resolved = registry.resolve(schema);
  // An object body whose fields are all optional may be left out: it then counts as `{}`, unless it needs a key.
  const needsKey = ((resolved.allOf as JsonSchema[] | undefined) ?? []).some((part) => typeof part.minProperties === 'number' && part.minProperties > 0);
  const required = resolved.type !== 'object' || ((resolved.required as string[] | undefined) ?? []).length > 0 || needsKey;
  return { required, content: { 'application/json': { schema: withRequestText(schema) } } };
}

function successResponse(registry: SchemaRegistry, route: RouteDef): Record<string, unknown> {
  if (route.status === 204 || !route.response) return { description: route.status === 204 ? 'No content' : 'Success' };
  if (isRaw(route.response)) return { description: 'Success', content: rawContent(route.response) };
  return { description: 'Success', content: { 'application/json': { schema: registry.convert(route.response) } } };
}

const textHeader = (description: string, required = false) => ({ description, required, schema: { type: 'string' } });

/** The answer headers of a route that takes conditional or range headers, by the statuses that carry them. */
function fileAnswerHeaders(route: RouteDef): { full: Record<string, unknown>; part: Record<string, unknown>; notModified: Record<string, unknown> } {
  const headers = route.headers ?? [];
  const conditional = headers.includes('If-None-Match') || headers.includes('If-Modified-Since');
  const version: Record<string, unknown> = conditional
    ? {
        ETag: textHeader('The version of the content, for If-None-Match (and If-Range)'),
        'Last-Modified': textHeader('When the content last changed, for If-Modified-Since'),
      }
    : {};
  const ranges: Record<string, unknown> = headers.includes('Range') ? { 'Accept-Ranges': textHeader('`bytes`: the content can be asked for in ranges') } : {};
  return {
    full: { ...version, ...ranges },
    part: { ...version, ...ranges, 'Content-Range': textHeader('The range sent and the full length: `bytes <first>-<last>/<length>`', true) },
    notModified: version,
  };
}

/** The answers of a route that takes conditional or range headers: 304, and 206 with one part of the content. */
function conditionalResponses(registry: SchemaRegistry, route: RouteDef): Record<string, unknown> {
  const headers = route.headers ?? [];
  const answer = fileAnswerHeaders(route);
  const out: Record<string, unknown> = {};
  if (headers.includes('Range'))
    out['206'] = { ...successResponse(registry, route), description: 'One range of the content (Range), with Content-Range', headers: answer.part };
  if (headers.includes('If-None-Match') || headers.includes('If-Modified-Since'))
    out['304'] = { description: 'Not modified: If-None-Match (or If-Modified-Since) matches the current version', headers: answer.notModified };
  return out;
}

/** The success answer, with the headers a file answer carries (ETag, Last-Modified, Accept-Ranges) where the route takes conditions or ranges. */
function successWithHeaders(registry: SchemaRegistry, route: RouteDef): Record<string, unknown> {
  const success = successResponse(registry, route);
  const { full } = fileAnswerHeaders(route);
  return Object.keys(full).length > 0 ? { ...success, headers: full } : success;
}

function describeOperation(route: RouteDef): string {
  const lines = [route.description ?? route.summary, '', `**Access:** ${accessLabel(route.access)}.`];
  if (needsCsrf(route)) lines.push('', 'A request made with a session carries the `X-CSRF-Token` header.');
  else if (isStateChanging(route)) lines.push('', 'Exempt from the CSRF token (no session exists yet); a cross-site `Origin` is refused.');
  return lines.join('\n');
}

/** The OpenAPI operation object of one route declaration. */
export function buildOperation(registry: SchemaRegistry, area: string, route: RouteDef): Record<string, unknown> {
  const operation: Record<string, unknown> = {
    operationId: route.id,
    tags: [area],
    summary: route.summary,
    description: describeOperation(route),
    'x-access': route.access,
    'x-error-codes': routeErrorCodes(route),
    security: security(route),
  };
  const params = parameters(registry, route);
  if (params.length > 0) operation.parameters = params;
  const body = requestBody(registry, route.body);
  if (body) operation.requestBody = body;
  operation.responses = { [String(route.status)]: successWithHeaders(registry, route), ...conditionalResponses(registry, route), ...errorResponses(route) };
  return operation;
}

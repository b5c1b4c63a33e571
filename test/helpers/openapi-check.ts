import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema; style?: string };
type Content = Record<string, { schema?: Schema }>;
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Content };
  responses: Record<string, { content?: Content; headers?: Record<string, { required?: boolean; schema?: Schema }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const documentId = 'https://cellar.invalid/openapi.json';

/** A call or answer that the document the daemon serves does not describe. */
export class ContractMismatch extends Error {
  override name = 'ContractMismatch';
}

/** A body that is not JSON text (a Blob, bytes, a stream): its media type is whatever fetch gives it. */
export const rawBody = Symbol('raw body');

/** What a call sent: the typed client's calls are checked whole, raw ones (deliberately bad input) only by their answer. */
export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

function mediaType(header: string | null): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The document's entry for a media type: exact, then `image/*`, then `*\/*`. */
function mediaEntry(content: Content, type: string): { schema?: Schema } | undefined {
  return content[type] ?? content[`${type.split('/')[0]}/*`] ?? content['*/*'];
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  // The first few: an answer far off the document would list every field.
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} (schema ${e.schemaPath.replace(documentId, '')}${e.params ? ` ${JSON.stringify(e.params)}` : ''})`)
    .join('; ');
}

/**
 * Checks requests and answers against the OpenAPI document a daemon serves (GET /api/openapi.json),
 * with Ajv in 2020-12 mode and the formats OpenAPI names. Validators are compiled on first use.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  // Path, query and header values arrive as strings: their schemas are checked with coercion.
  private readonly ajvParams: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { regex: RegExp; names: string[]; path: string }[];

  constructor(private readonly doc: Document) {
    const make = (coerceTypes: false | 'array') => {
      const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, validateFormats: true });
      addFormats.default(ajv);
      ajv.addSchema({ $id: documentId, components: structuredClone(doc.components) });
      return ajv;
    };
    this.ajv = make(false);
    this.ajvParams = make('array');
    // Literal paths first, so /api/x/new wins over /api/x/{id}.
    this.templates = Object.keys(doc.paths)
      .map((path) => {
        const names: string[] = [];
        const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
        return { regex: new RegExp(`^${source}$`), names, path };
      })
      .sort((a, b) => a.names.length - b.names.length);
  }

  /** The operation a request goes to, or null for a path the document does not list. */
  find(method: string, pathname: string): { operation: Operation; path: string; params: Record<string, string> } | null {
    for (const t of this.templates) {
      const m = t.regex.exec(pathname);
      const operation = m && this.doc.paths[t.path]?.[method.toLowerCase()];
      if (!m || !operation) continue;
      const params = Object.fromEntries(t.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
      return { operation, path: t.path, params };
    }
    return null;
  }

  private validator(key: string, schema: Schema, params: boolean): ValidateFunction {
    let fn = this.compiled.get(key);
    if (!fn) {
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${documentId}#/components/`)) as Schema;
      fn = (params ? this.ajvParams : this.ajv).compile(rebased);
      this.compiled.set(key, fn);
    }
    return fn;
  }

  private check(op: Operation, where: string, schema: Schema | undefined, value: unknown, params = false): void {
    if (!schema) return;
    const fn = this.validator(`${op.operationId} ${where}`, schema, params);
    if (!fn(value)) throw new ContractMismatch(`${op.operationId}: ${where} does not match the document: ${describeErrors(fn.errors)}`);
  }

  /** How `value` breaks the component schema `name`, or null when it matches. */
  componentMismatch(name: string, value: unknown): string | null {
    const fn = this.validator(`component ${name}`, { $ref: `#/components/schemas/${name}` }, false);
    return fn(value) ? null : describeErrors(fn.errors);
  }

  /** How a request breaks the document (path, query and header parameters, body), or null when it does not. */
  requestMismatch(request: SentRequest): string | null {
    try {
      this.checkRequest(request);
      return null;
    } catch (err) {
      if (err instanceof ContractMismatch) return err.message;
      throw err;
    }
  }

  /** Throws how a request breaks the document. */
  checkRequest(request: SentRequest): void {
    const found = this.find(request.method, request.url.pathname);
    if (!found) throw new ContractMismatch(`${request.method} ${request.url.pathname}: no operation of the document has this path and method`);
    const { operation: op, params } = found;
    const query = queryObject(request.url.searchParams);
    const known = new Set<string>();
    for (const p of op.parameters ?? []) {
      const raw = p.in === 'path' ? params[p.name] : p.in === 'query' ? query[p.name] : (request.headers.get(p.name) ?? undefined);
      if (p.in === 'query') known.add(p.name);
      if (raw === undefined) {
        if (p.required) throw new ContractMismatch(`${op.operationId}: required ${p.in} parameter ${p.name} is missing`);
        continue;
      }
      // Coercion writes into its container: give the value one.
      const box = { value: structuredClone(raw) };
      this.check(op, `${p.in} parameter ${p.name}`, p.schema && { type: 'object', properties: { value: p.schema } }, box, true);
    }
    for (const name of Object.keys(query))
      if (!known.has(name)) throw new ContractMismatch(`${op.operationId}: query parameter ${name} is not in the document`);
    const type = mediaType(request.headers.get('content-type'));
    if (request.body === undefined) {
      if (op.requestBody?.required) throw new ContractMismatch(`${op.operationId}: the document requires a request body`);
      return;
    }
    const content = op.requestBody?.content;
    if (!content) throw new ContractMismatch(`${op.operationId}: sent a body, the document takes none`);
    if (request.body === rawBody && !type) return;
    const media = mediaEntry(content, type);
    if (!media) throw new ContractMismatch(`${op.operationId}: request content type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`);
    if (type === 'application/json') this.check(op, 'request body', media.schema, JSON.parse(String(request.body)));
  }

  /** Status, content type, JSON body and the headers the document names, of any answer to an operation of the document. */
  async checkResponse(method: string, url: URL, response: Response): Promise<void> {
    const found = this.find(method, url.pathname);
    if (!found) return;
    const op = found.operation;
    const documented = op.responses[String(response.status)] ?? op.responses[`${String(response.status)[0]}XX`] ?? op.responses.default;
    const statuses = Object.keys(op.responses).join(', ');
    if (!documented) throw new ContractMismatch(`${op.operationId}: answered status ${response.status}, the document lists ${statuses}`);
    const where = `response ${response.status}`;
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) throw new ContractMismatch(`${op.operationId}: ${where} lacks the header ${name}`);
        continue;
      }
      this.check(op, `${where} header ${name}`, header.schema && { type: 'object', properties: { value: header.schema } }, { value }, true);
    }
    const type = mediaType(response.headers.get('content-type'));
    const hasBody = response.status !== 204 && response.status !== 304 && method !== 'HEAD';
    if (!documented.content) {
      if (hasBody && type) throw new ContractMismatch(`${op.operationId}: ${where} has content (${type}), the document declares none`);
      return;
    }
    if (!hasBody) return;
    const media = mediaEntry(documented.content, type);
    if (!media)
      throw new ContractMismatch(`${op.operationId}: ${where} content type ${type || '(none)'} is not one of ${Object.keys(documented.content).join(', ')}`);
    if (!type.endsWith('json') || !media.schema) return;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ContractMismatch(`${op.operationId}: ${where} is not JSON: ${text.slice(0, 200)}`);
    }
    this.check(op, `${where} body (${type})`, media.schema, body);
  }
}

/** Query parameters as the daemon reads them: repeated names as arrays, `a[b]=c` as nested objects (deepObject). */
function queryObject(search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of search) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested) {
      const inner = (out[nested[1]!] ??= {}) as Record<string, unknown>;
      inner[nested[2]!] = value;
    } else if (key in out) out[key] = [out[key], value].flat();
    else out[key] = value;
  }
  return out;
}

const checkers = new Map<string, ContractChecker>();

/** The checker of a daemon's document, fetched once per daemon and compiled once per distinct document. */
export async function contractChecker(baseUrl: string, fetcher: typeof fetch = fetch): Promise<ContractChecker> {
  const res = await fetcher(`${baseUrl}/api/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  const text = await res.text();
  let checker = checkers.get(text);
  if (!checker) {
    checker = new ContractChecker(JSON.parse(text) as Document);
    checkers.set(text, checker);
  }
  return checker;
}

import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import Joi from 'joi';
import { api } from '../../shared/src/api/index.ts';
import { defineRoute, type RouteDef } from '../../shared/src/api/route.ts';
import { errorCatalog } from '../../shared/src/errors/index.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../../daemon/src/http/openapi/document.ts';
import { routeErrorCodes } from '../../daemon/src/http/openapi/route-errors.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

type Operation = {
  operationId: string;
  tags: string[];
  'x-access': string;
  'x-error-codes': string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { description: string; 'x-error-codes'?: string[]; content?: Record<string, { schema?: Record<string, unknown> }> }>;
};

const routes = Object.entries(api).flatMap(([area, table]) => Object.values(table as Record<string, RouteDef>).map((route) => ({ area, route })));

describe('OpenAPI document and API docs', () => {
  let box: TestDaemon;
  let doc: OpenApiDocument;
  const operation = (route: RouteDef): Operation => doc.paths[route.path]?.[route.method.toLowerCase()] as Operation;

  before(async () => {
    box = await startTestDaemon();
    const res = await box.client().request('GET', '/api/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    doc = (await res.json()) as OpenApiDocument;
  });
  after(() => box.close());

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    // The validator dereferences in place: give it a copy.
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
    // resolveRefs throws on a $ref that points nowhere.
    expect(() => validator.resolveRefs()).to.not.throw();
  });

  it('is public and names the product and its version', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.title).to.equal('Cellar');
    expect(doc.info.version).to.equal((await box.client().api.system.health()).version);
    for (const pinned of ['box.sid', 'box.device', 'X-CSRF-Token', 'application/problem+json', 'nextCursor', 'queued', 'subscribe'])
      expect(doc.info.description).to.contain(pinned);
  });

  it('has every route of every table with its access, schemas and every code it can answer', () => {
    const ids = new Set<string>();
    for (const { area, route } of routes) {
      const op = operation(route);
      expect(op, `${route.method} ${route.path}`).to.be.an('object');
      expect(op.operationId).to.equal(route.id);
      expect(ids.has(route.id), `duplicate operationId ${route.id}`).to.equal(false);
      ids.add(route.id);
      expect(op.tags).to.deep.equal([area]);
      expect(op['x-access']).to.equal(route.access);
      expect(op.responses[String(route.status)], `${route.id} success`).to.be.an('object');
      const documented = Object.entries(op.responses).flatMap(([status, response]) => {
        for (const code of response['x-error-codes'] ?? []) expect(errorCatalog[code as keyof typeof errorCatalog].status, code).to.equal(Number(status));
        return response['x-error-codes'] ?? [];
      });
      const expected = [...route.errors, 'server.internal.error'];
      if (route.access === 'app') expected.push('app.token.invalid');
      else if (route.access !== 'public') expected.push('auth.session.required');
      expect(documented, route.id).to.include.members(expected);
      expect(op['x-error-codes']).to.have.members(documented);
      if (route.params) expect(op.parameters?.filter((p) => p.in === 'path').length, route.id).to.be.above(0);
      if (route.body && !('raw' in route.body)) expect(op.requestBody?.content['application/json']?.schema, route.id).to.be.an('object');
    }
    const documentedCount = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(documentedCount).to.equal(routes.length);
  });

  it('lists only operations the daemon serves', async () => {
    const c = box.client();
    const unserved: string[] = [];
    for (const { route } of routes) {
      // Without a session every operation is refused or answered, but never unknown.
      const res = await c.request(route.method, route.path.replace(/\{\w+\}/g, '1'), { body: route.method === 'GET' ? undefined : {} });
      const body = res.headers.get('content-type')?.startsWith('application/problem+json') ? ((await res.json()) as { code: string }) : null;
      if (body?.code === 'request.route.not_found') unserved.push(`${route.method} ${route.path}`);
    }
    expect(unserved).to.deep.equal([]);
  });

  it('declares each route table schema name once, without conflicting shapes', () => {
    expect(buildOpenApiDocument(api, { title: 'Cellar', version: '0' }).conflicts).to.deep.equal([]);
  });

  it('documents the session cookie, the CSRF header and the error catalog', () => {
    expect(doc.components.securitySchemes.session).to.include({ type: 'apiKey', in: 'cookie', name: 'box.sid' });
    expect(doc.components.securitySchemes.csrf).to.include({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' });
    expect(Object.keys(doc.components['x-error-catalog'])).to.have.members(Object.keys(errorCatalog));
    expect(doc.components['x-error-catalog']['auth.session.required']).to.deep.include({ status: 401, type: '/api/docs#error-auth.session.required' });
    expect(doc.components.schemas.ProblemDetails).to.include({ type: 'object' });
    const logout = operation(api.auth.logout);
    expect(logout.security).to.deep.equal([{ session: [], csrf: [] }]);
    expect(logout.responses['403']?.['x-error-codes']).to.include('auth.csrf.invalid');
    expect(logout.responses['204']?.content).to.equal(undefined);
    const login = operation(api.auth.login);
    expect(login.security).to.deep.equal([]);
    expect(login.responses['400']?.['x-error-codes']).to.include('request.body.invalid');
    expect(login.responses['413']?.['x-error-codes']).to.deep.equal(['request.body.too_large']);
    expect(login.responses['200']?.content?.['application/json']?.schema).to.deep.equal({ $ref: '#/components/schemas/LoginResponse' });
    expect(operation(api.auth.session).security).to.deep.equal([{ session: [] }]);
  });

  it('derives the generic codes from the kind of route', () => {
    const adminPut = defineRoute({
      id: 'x.put',
      method: 'PUT',
      path: '/api/x/{id}',
      access: 'admin',
      summary: 'x',
      params: Joi.object({ id: Joi.number().integer() }),
      query: Joi.object({ q: Joi.string() }),
      body: Joi.object({ a: Joi.string() }),
      status: 204,
      errors: ['jobs.job.not_found'],
    });
    expect(routeErrorCodes(adminPut)).to.have.members([
      'request.params.invalid',
      'request.query.invalid',
      'request.body.invalid',
      'request.body.too_large',
      'request.media_type.unsupported',
      'auth.session.required',
      'auth.permission.denied',
      'auth.csrf.invalid',
      'jobs.job.not_found',
      'installer.mode.only',
      'server.internal.error',
    ]);
    const publicGet = defineRoute({ id: 'x.get', method: 'GET', path: '/api/x', access: 'public', summary: 'x', status: 200, errors: [] });
    expect(routeErrorCodes(publicGet)).to.deep.equal(['installer.mode.only', 'server.internal.error']);
    // What the installation medium answers besides the installer: no installer.mode.only there.
    expect(routeErrorCodes({ ...publicGet, path: '/api/health' })).to.deep.equal(['server.internal.error']);
    expect(routeErrorCodes({ ...publicGet, id: 'installer.status', path: '/api/installer' })).to.deep.equal(['server.internal.error']);
    const upload = defineRoute({ ...publicGet, method: 'POST', access: 'right:files', body: { raw: true, contentType: 'application/octet-stream' } });
    expect(routeErrorCodes(upload)).to.have.members([
      'request.body.too_large',
      'auth.session.required',
      'auth.permission.denied',
      'auth.csrf.invalid',
      'installer.mode.only',
      'server.internal.error',
    ]);
  });

  it('keeps a named schema intact where a use of it allows null', () => {
    const item = Joi.object({ n: Joi.number().required() }).id('Item');
    const holder = Joi.object({ item: item.allow(null).required() }).id('Holder');
    const route = { id: 't.get', method: 'GET', path: '/t', access: 'public', summary: 't', status: 200, errors: [] } as const;
    // The nullable use comes first, so a plain overwrite would leave the component nullable.
    const table = { holder: defineRoute({ ...route, response: holder }), item: defineRoute({ ...route, id: 't.item', path: '/i', response: item }) };
    const { document, conflicts } = buildOpenApiDocument({ t: table }, { title: 't', version: '1' });
    expect(conflicts).to.deep.equal([]);
    expect(document.components.schemas.Item).to.deep.include({ type: 'object', required: ['n'] });
    const holderSchema = document.components.schemas.Holder as { properties: Record<string, unknown>; required: string[] };
    expect(holderSchema.properties.item).to.deep.equal({ anyOf: [{ $ref: '#/components/schemas/Item' }, { const: null }] });
    expect(holderSchema.required).to.deep.equal(['item']);
    expect(document.paths['/i']?.get?.responses).to.have.nested.property('200.content.application/json.schema.$ref', '#/components/schemas/Item');
  });

  it('reports a schema name used for two different shapes', () => {
    const route = { id: 't.a', method: 'GET', path: '/a', access: 'public', summary: 't', status: 200, errors: [] } as const;
    const table = {
      a: defineRoute({ ...route, response: Joi.object({ a: Joi.string() }).id('Twice') }),
      b: defineRoute({ ...route, id: 't.b', path: '/b', response: Joi.object({ b: Joi.string() }).id('Twice') }),
    };
    expect(buildOpenApiDocument({ t: table }, { title: 't', version: '1' }).conflicts).to.deep.equal(['Twice']);
  });

  it('serves the docs page with local scripts only and the error code anchors', async () => {
    const res = await box.client().request('GET', '/api/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.match(/script-src 'self'(;|$)/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.length).to.equal(2);
    for (const [, attrs, inline] of scripts) {
      expect(inline, 'no inline script').to.equal('');
      expect(attrs).to.match(/src="\/api\/docs\/assets\/[\w.-]+\.js"/);
    }
    for (const [, href] of html.matchAll(/(?:href|src)="([^"]+)"/g)) expect(href, 'no remote asset').to.match(/^\//);
    for (const code of Object.keys(errorCatalog)) expect(html).to.contain(`id="error-${code}"`);
  });

  it('serves the Swagger UI assets and the page script from the daemon itself', async () => {
    const c = box.client();
    const html = await (await c.request('GET', '/api/docs')).text();
    for (const [, asset] of html.matchAll(/(?:href|src)="(\/api\/docs\/assets\/[^"]+)"/g)) {
      const res = await c.request('GET', asset!);
      expect(res.status, asset).to.equal(200);
      expect((await res.arrayBuffer()).byteLength, asset).to.be.above(0);
    }
    const bundle = await c.request('GET', '/api/docs/assets/swagger-ui-bundle.js');
    expect(bundle.headers.get('content-type')).to.match(/javascript/);
    expect(await bundle.text()).to.contain('SwaggerUIBundle');
    const init = await (await c.request('GET', '/api/docs/assets/docs-init.js')).text();
    expect(init).to.contain("url: '/api/openapi.json'");
    const stale = await c.request('GET', '/api/docs/assets/docs.css', { headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
    expect(stale.status, 'a precondition the document does not offer is ignored').to.equal(200);
    // The page's files are a documented operation whose name is one of them: any other is refused as a bad path.
    const other = await c.request('GET', '/api/docs/assets/index.html');
    expect(other.status).to.equal(400);
    expect((await other.json()).code).to.equal('request.params.invalid');
  });
});

import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import Joi from 'joi';
import { api } from '../../shared/src/api/index.ts';
import { defineRoute } from '../../shared/src/api/route.ts';
import { buildOpenApiDocument } from '../../daemon/src/http/openapi/document.ts';
import { adminPassword, checkedFetch, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { ContractChecker, ContractMismatch, contractChecker, type SentRequest } from '../helpers/openapi-check.ts';

/**
 * Issue 30: the OpenAPI document the daemon serves, checked on instances (what a third-party
 * validator or generated client sees), not only on its own shape: what the daemon accepts and
 * answers matches the document, and what the document refuses the daemon refuses too.
 */
describe('OpenAPI document: instances of requests and answers', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let checker: ContractChecker;
  let doc: {
    paths: Record<string, Record<string, { summary: string; description: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
  };

  const request = (method: string, path: string, body?: unknown): SentRequest => ({
    method,
    url: new URL(`http://127.0.0.1${path}`),
    headers: new Headers(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const requestMismatch = (method: string, path: string, body?: unknown) => checker.requestMismatch(request(method, path, body));

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn('admin', adminPassword);
    checker = await contractChecker(box.url);
    doc = (await (await fetch(`${box.url}/api/openapi.json`)).json()) as typeof doc;
  });
  after(() => box.close());

  it('names the operation and the schema path of a mismatch, for an answer and for a request', async () => {
    const answer = new Response(JSON.stringify({ status: 'ok' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    const err = await checker.checkResponse('GET', new URL(`${box.url}/api/auth/session`), answer).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ContractMismatch);
    expect((err as Error).message).to.match(
      /^auth\.session: response 200 body \(application\/json\) does not match the document: .*schema .*#\/components\/schemas\//,
    );
    const undocumented = new Response('{}', { status: 418, headers: { 'Content-Type': 'application/json' } });
    const teapot = await checker.checkResponse('GET', new URL(`${box.url}/api/auth/session`), undocumented).catch((e: unknown) => e);
    expect((teapot as Error).message).to.match(/^auth\.session: answered status 418, the document lists 200, 401, 403, 500/);
    expect(requestMismatch('POST', '/api/auth/login', { username: 'admin' })).to.match(/^auth\.login: request body .*required property 'password'.*schema /);
  });

  it('fails a typed call whose request the document refuses but the daemon accepts; a raw one is checked by its answer only', async () => {
    const body = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    const answer = { content: { 'application/json': { schema: { type: 'object' } } } };
    const small = new ContractChecker({
      paths: {
        '/api/t': {
          post: { operationId: 't.post', requestBody: { required: true, content: { 'application/json': { schema: body } } }, responses: { '200': answer } },
        },
      },
      components: { schemas: {} },
    });
    const accepting: typeof fetch = async () => new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ a: 1 }) };
    const typed = await checkedFetch(accepting, async () => small, 'both')('http://127.0.0.1:1/api/t', init).catch((e: unknown) => e);
    expect(typed).to.be.instanceOf(ContractMismatch);
    expect((typed as Error).message).to.match(
      /^t\.post: request body does not match the document: \/a must be string .*; yet the daemon accepted it with 200$/,
    );
    expect((await checkedFetch(accepting, async () => small, 'answers')('http://127.0.0.1:1/api/t', init)).status).to.equal(200);
  });

  it('lets a deliberately bad request through the typed client when the daemon refuses it with a documented problem', async () => {
    // The daemon refuses an unknown field: the deliberately bad request passes as long as the refusal is documented.
    const refused = await admin.api.auth.login({ body: { username: 'admin', password: adminPassword, extra: 1 } as never }).catch((e: unknown) => e);
    expect(refused).to.have.property('code', 'request.body.invalid');
  });

  describe('what the instance checks found beyond the issue’s points', () => {
    it('carries every schema of the route tables, and names what it could not carry', () => {
      expect(buildOpenApiDocument(api, { title: 'Cellar', version: '0' }).undocumented).to.deep.equal([]);
      const route = { id: 't.get', method: 'GET', path: '/t', access: 'public', summary: 't', status: 200, errors: [] } as const;
      const query = Joi.object({ a: Joi.string(), b: Joi.number().when('a', { is: Joi.exist(), then: Joi.number().min(3) }), c: Joi.string().pattern(/^x$/m) });
      expect(buildOpenApiDocument({ t: { get: defineRoute({ ...route, query }) } }, { title: 't', version: '1' }).undocumented).to.have.members([
        '.when() on b: only a sibling key compared with literal values can be documented',
        'pattern /^x$/m: only the i and u flags can be written into a JSON Schema pattern',
      ]);
    });

    it('documents a map (`Joi.object().pattern(Joi.string(), value)`) as additionalProperties, not as an empty object', () => {
      const route = { id: 't.get', method: 'GET', path: '/t', access: 'public', summary: 't', status: 200, errors: [] } as const;
      const response = Joi.object({ counts: Joi.object().pattern(Joi.string().max(5), Joi.number().integer().min(0)).required() }).id('Counted');
      const { document } = buildOpenApiDocument({ t: { get: defineRoute({ ...route, response }) } }, { title: 't', version: '1' });
      expect((document.components.schemas.Counted as { properties: Record<string, unknown> }).properties.counts).to.deep.equal({
        type: 'object',
        properties: {},
        additionalProperties: { type: 'integer', minimum: 0, format: 'int64' },
        propertyNames: { type: 'string', maxLength: 5 },
      });
    });

    it("lets through the values a pattern-checked string also allows (`.allow('')`), as the daemon does", () => {
      expect(checker.componentMismatch('UpdateCatalogRequest', { readToken: '' })).to.equal(null);
      expect(checker.componentMismatch('UpdateCatalogRequest', { readToken: 'reader:s3cret' })).to.equal(null);
      expect(checker.componentMismatch('UpdateCatalogRequest', { readToken: 'no-colon' })).to.match(/pattern/);
    });

    it('documents the log export as JSON lines or text, and installer.mode.only on every operation the medium refuses', () => {
      expect(Object.keys(doc.paths['/api/logs/export']?.get?.responses['200']?.content ?? {})).to.have.members(['application/x-ndjson', 'text/plain']);
      const codes = (path: string, method: string) => (doc.paths[path]?.[method] as unknown as { 'x-error-codes': string[] })['x-error-codes'];
      expect(codes('/api/auth/session', 'get')).to.include('installer.mode.only');
      expect(codes('/api/users', 'get')).to.include('installer.mode.only');
      expect(codes('/api/health', 'get')).to.not.include('installer.mode.only');
      expect(codes('/api/installer', 'get')).to.not.include('installer.mode.only');
    });

    it('documents a file download as any media type, one range as 206 and a matching validator as 304', async () => {
      const op = doc.paths['/api/files/{shareId}/content']?.get;
      expect(Object.keys(op?.responses['200']?.content ?? {})).to.deep.equal(['*/*']);
      expect(Object.keys(op?.responses ?? {})).to.include.members(['200', '206', '304', '416']);
      const url = new URL(`${box.url}/api/files/1/content?path=a.txt`);
      await checker.checkResponse('GET', url, new Response('text', { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
      await checker.checkResponse('GET', url, new Response('te', { status: 206, headers: { 'Content-Type': 'text/plain', 'Content-Range': 'bytes 0-1/4' } }));
      await checker.checkResponse('GET', url, new Response(null, { status: 304, headers: { ETag: '"1-4-5"' } }));
      // One range is useless without where it lies: the document requires Content-Range on a 206.
      const bare = await checker
        .checkResponse('GET', url, new Response('te', { status: 206, headers: { 'Content-Type': 'text/plain' } }))
        .catch((e: unknown) => e);
      expect(String(bare)).to.match(/files\.download: response 206 lacks the header Content-Range/);
      const wallpaper = doc.paths['/api/desktop/wallpaper']?.get;
      expect(Object.keys(wallpaper?.responses ?? {})).to.include('304');
      expect(Object.keys(doc.paths['/api/files/{shareId}/thumbnail']?.get?.responses ?? {})).to.include('304');
    });
  });

  describe('as strict as the daemon where the hostile-input sweep found the document looser', () => {
    // Each request here is refused by the daemon with a schema refusal (400); the document must refuse it too.
    it('refuses control characters in strings and keys of every request part, at any depth', () => {
      expect(requestMismatch('PATCH', '/api/users/2', { displayName: 'a\u0000b' })).to.match(/^users\.update: request body .*\/displayName must match pattern/);
      expect(requestMismatch('GET', '/api/logs?search=%1B%5B31m')).to.match(/^logs\.list: query parameter search .*must match pattern/);
      expect(requestMismatch('PUT', '/api/desktop/layout', { windows: [{ 'ti\u0007tle': 'x' }] })).to.match(/property name/);
      expect(requestMismatch('PATCH', '/api/users/2', { displayName: 'tab\tand\r\nlines' })).to.equal(null);
    });

    it('narrows each case of a conditional body to its kind, and refuses an object that needs one key', () => {
      expect(requestMismatch('POST', '/api/storage/plans', { kind: 'a', pool: 'tank' })).to.match(/^storage\.createPlan: request body/);
      expect(requestMismatch('POST', '/api/storage/plans', { kind: 'pool.create' })).to.match(/^storage\.createPlan: request body/);
      expect(requestMismatch('POST', '/api/storage/plans', { kind: 'pool.export', pool: 'tank' })).to.equal(null);
      expect(requestMismatch('PATCH', '/api/shares/1', {})).to.match(/^shares\.update: request body .*minProperties/);
      expect(requestMismatch('PUT', '/api/store/settings', {})).to.match(/^store\.settings: request body .*minProperties/);
    });

    it('takes a quota of 0 or at least 1 MiB, and base64 as joi means it', () => {
      expect(requestMismatch('PUT', '/api/homes/users/2/quota', { quotaBytes: 1 })).to.match(/^homes\.setQuota: request body/);
      for (const quotaBytes of [0, null, 1024 * 1024]) expect(requestMismatch('PUT', '/api/homes/users/2/quota', { quotaBytes })).to.equal(null);
      expect(requestMismatch('POST', '/api/system/backup/inspect', { password: 'p', backup: 'a' })).to.match(/\/backup must match pattern/);
      expect(requestMismatch('POST', '/api/system/backup/inspect', { password: 'p', backup: Buffer.from('backup').toString('base64') })).to.equal(null);
    });
  });

  describe('point 1: conditions of .when() are in the document', () => {
    const source = { shareId: 1, path: 'a' };
    const target = { shareId: 1, path: 'b' };

    it('takes onConflict for copy and move and permanent for delete, and refuses them where the daemon does', () => {
      expect(requestMismatch('POST', '/api/files/operations', { op: 'copy', sources: [source], target, onConflict: 'rename' })).to.equal(null);
      expect(requestMismatch('POST', '/api/files/operations', { op: 'move', sources: [source], target, onConflict: 'overwrite' })).to.equal(null);
      expect(requestMismatch('POST', '/api/files/operations', { op: 'delete', sources: [source], permanent: true })).to.equal(null);
      expect(requestMismatch('POST', '/api/files/operations', { op: 'delete', sources: [source], target })).to.match(/allOf\/0\/then/);
      expect(requestMismatch('POST', '/api/files/operations', { op: 'copy', sources: [source] })).to.match(/required property 'target'/);
      expect(requestMismatch('POST', '/api/files/operations', { op: 'copy', sources: [source], target, permanent: true })).to.match(/allOf\/2\/else/);
      expect(requestMismatch('POST', '/api/files/operations', { op: 'delete', sources: [source], onConflict: 'skip' })).to.match(/allOf\/1\/then/);
    });

    it('ties a desktop item’s fields to its kind', () => {
      expect(requestMismatch('POST', '/api/desktop/items', { kind: 'app', label: 'Notes', appId: 'org.example.notes' })).to.equal(null);
      expect(requestMismatch('POST', '/api/desktop/items', { kind: 'folder', label: 'Docs', shareId: 1, path: 'Docs' })).to.equal(null);
      expect(requestMismatch('POST', '/api/desktop/items', { kind: 'app', label: 'Notes', appId: 'org.example.notes', shareId: 1 })).to.match(/shareId|allOf/);
      expect(requestMismatch('POST', '/api/desktop/items', { kind: 'folder', label: 'Docs', shareId: 1 })).to.match(/required property 'path'/);
    });

    it('types the shareId of a user removal as an id and says when it is required', () => {
      const param = (
        doc.paths['/api/users/{userId}']?.delete as unknown as { parameters: { name: string; schema: unknown; description?: string }[] }
      ).parameters.find((p) => p.name === 'shareId');
      expect(param?.schema).to.deep.include({ type: 'integer', minimum: 1, format: 'int64' });
      expect(param?.description).to.equal('Required when home is move.');
      expect(requestMismatch('DELETE', '/api/users/5?home=move&shareId=3')).to.equal(null);
      expect(requestMismatch('DELETE', '/api/users/5?home=move&shareId=x')).to.match(/query parameter shareId/);
    });

    it('ties the installer network’s address and gateway to its method', () => {
      const dhcp = { interface: 'eth0', method: 'dhcp', address: null, gateway: null, nameservers: [] };
      const fixed = { interface: 'eth0', method: 'static', address: '192.0.2.2/24', gateway: '192.0.2.1', nameservers: ['192.0.2.53'] };
      expect(checker.componentMismatch('InstallerNetworkConfig', dhcp)).to.equal(null);
      expect(checker.componentMismatch('InstallerNetworkConfig', fixed)).to.equal(null);
      expect(checker.componentMismatch('InstallerNetworkConfig', { ...fixed, address: null })).to.match(/allOf\/0\/then/);
      expect(checker.componentMismatch('InstallerNetworkConfig', { ...dhcp, address: '192.0.2.2/24' })).to.match(/allOf\/0\/else/);
      expect(checker.componentMismatch('InstallerNetworkConfig', { ...dhcp, gateway: '192.0.2.1' })).to.match(/allOf\/1\/then/);
    });
  });

  describe('point 2: network addresses in CIDR form', () => {
    it('matches the real network state and check answers, whose addresses carry a prefix length', async () => {
      const res = await admin.request('GET', '/api/system/network');
      expect(res.status).to.equal(200);
      await checker.checkResponse('GET', new URL(`${box.url}/api/system/network`), res);
      const state = (await res.json()) as { links: { addresses: { address: string }[] }[]; configured: unknown };
      expect(state.links.flatMap((l) => l.addresses.map((a) => a.address))).to.include('127.0.0.1/8');
      const check = await admin.request('POST', '/api/system/network/check', { body: state.configured });
      expect(check.status).to.equal(200);
      await checker.checkResponse('POST', new URL(`${box.url}/api/system/network/check`), check);
    });

    it('takes an address with its prefix length, IPv4 or IPv6, and refuses a bare one as the daemon does', () => {
      const card = (addresses: string[]) => ({ name: 'eth0', method: 'static', addresses, gateway: null });
      expect(checker.componentMismatch('InterfaceConfig', card(['192.0.2.2/24', '2001:db8::2/64', 'fe80::1/10', '::ffff:192.0.2.1/128']))).to.equal(null);
      for (const bad of ['192.0.2.2', '2001:db8::2', '192.0.2.2/33', '2001:db8::2/129', '192.0.02.2/24', '300.0.0.1/8'])
        expect(checker.componentMismatch('InterfaceConfig', card([bad])), bad).to.match(/pattern/);
    });
  });

  describe('point 3: patterns carry no JavaScript flags', () => {
    it('matches host names in either case and user names with any letter', () => {
      expect(JSON.stringify(doc)).to.not.match(/\$\/[a-z]+"/);
      expect(checker.componentMismatch('CreateAuthorityRequest', { localDomain: 'Box.Example.test' })).to.equal(null);
      expect(checker.componentMismatch('CreateAuthorityRequest', { localDomain: 'box_1.test' })).to.match(/pattern/);
      expect(checker.componentMismatch('TlsNamesRequest', { names: ['NAS.home.arpa', '*.Example.test', '192.0.2.1', '2001:db8::1'] })).to.equal(null);
      expect(checker.componentMismatch('IssueCertificateRequest', { names: ['Cellar.Local'] })).to.equal(null);
      const basicAuth = (username: string) => ({ basicAuth: [{ username, password: 'secret-secret' }] });
      expect(requestMismatch('POST', '/api/system/proxy/hosts', basicAuth('jörg'))).to.not.match(/username/);
      expect(requestMismatch('POST', '/api/system/proxy/hosts', basicAuth('a:b'))).to.match(
        /^proxy\.createHost: .*\/basicAuth\/0\/username must match pattern/,
      );
    });
  });

  describe('point 4 and 5: documented differences from the spec', () => {
    it('says that the installer’s network test takes InstallerNetworkConfig and why', () => {
      const op = doc.paths['/api/installer/network/test']?.post;
      expect(op?.description).to.contain("Takes InstallerNetworkConfig, not the spec's NetworkConfig");
      expect(readFileSync('docs/installer.md', 'utf8')).to.match(/not the spec's\s+`NetworkConfig`/);
    });

    it('names the log level’s topic apps/<appId> as the daemon serves it', () => {
      expect(doc.paths['/api/apps/{appId}/log-level']?.put?.summary).to.contain('apps/<appId>');
      expect(readFileSync('docs/apps.md', 'utf8')).to.contain('topic `apps/<appId>`');
    });
  });

  describe('point 6 and 7: overlapping branches, formats and media types', () => {
    it('lets null and any address match an anyOf of formats, never a oneOf', () => {
      const text = JSON.stringify(doc);
      expect(text).to.not.match(/"oneOf":\[\{"format"/);
      expect(
        checker.componentMismatch('InstallerNetworkConfig', {
          interface: 'eth0',
          method: 'static',
          address: '192.0.2.2/24',
          gateway: null,
          nameservers: ['2001:db8::53'],
        }),
      ).to.equal(null);
    });

    it('gives ids the int64 format and limits the int32 one', () => {
      const params = (path: string, method: string) =>
        (doc.paths[path]?.[method] as unknown as { parameters: { name: string; schema: { format?: string } }[] }).parameters;
      expect(params('/api/users/{userId}', 'delete').find((p) => p.name === 'userId')?.schema.format).to.equal('int64');
      expect(params('/api/files/{shareId}/list', 'get').find((p) => p.name === 'limit')?.schema.format).to.equal('int32');
      expect(requestMismatch('GET', '/api/files/1/list?limit=1000')).to.equal(null);
    });

    it('serves store screenshots as PNG, JPEG or WebP, as documented', async () => {
      const responses = doc.paths['/api/store/catalogs/{catalog}/apps/{appId}/{version}/screenshots/{name}']?.get?.responses;
      expect(Object.keys(responses?.['200']?.content ?? {})).to.have.members(['image/png', 'image/jpeg', 'image/webp']);
      const url = new URL(`${box.url}/api/store/catalogs/project/apps/org.example.notes/1.0.0/screenshots/home.jpg`);
      for (const type of ['image/png', 'image/jpeg', 'image/webp'])
        await checker.checkResponse('GET', url, new Response(new Uint8Array([1]), { status: 200, headers: { 'Content-Type': type } }));
      const gif = await checker
        .checkResponse('GET', url, new Response(new Uint8Array([1]), { status: 200, headers: { 'Content-Type': 'image/gif' } }))
        .catch((e: unknown) => e);
      expect((gif as Error).message).to.equal('store.screenshot: response 200 content type image/gif is not one of image/png, image/jpeg, image/webp');
    });
  });
});

import { expect } from 'chai';
import Joi from 'joi';
import { api } from '../../shared/src/api/index.ts';
import { defineRoute } from '../../shared/src/api/route.ts';
import { buildOpenApiDocument } from '../../daemon/src/http/openapi/document.ts';
import { lintApi } from '../../build/scripts/lint-api.ts';

function refsIn(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsIn(item, into);
  else if (typeof node === 'object' && node !== null)
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value.replace('#/components/schemas/', ''));
      else refsIn(value, into);
    }
  return into;
}

describe('OpenAPI document: Redocly lint', function () {
  this.timeout(120_000);
  const { document } = buildOpenApiDocument(api, { title: 'Cellar', version: '0' });

  it('passes `npm run lint:api` (redocly.yaml, every recommended rule an error) with no errors', () => {
    const { status, output } = lintApi();
    expect(status, output).to.equal(0);
    expect(output).to.contain('Your API description is valid');
  });

  it('names the serving box as its server', () => {
    expect(document.servers).to.deep.equal([{ url: '/', description: 'The box that serves this document' }]);
  });

  it('describes every area it tags', () => {
    expect(document.tags.map((t) => t.name)).to.deep.equal(Object.keys(api));
    for (const tag of document.tags) expect(tag.description, tag.name).to.be.a('string').and.not.equal(tag.name);
  });

  it('keeps only components an operation reaches: a named query schema is spread into parameters, not left behind', () => {
    const used = refsIn(document.paths);
    for (const name of used) refsIn(document.components.schemas[name], used);
    expect(Object.keys(document.components.schemas).filter((name) => !used.has(name))).to.deep.equal([]);

    const table = {
      list: defineRoute({
        id: 't.list',
        method: 'GET',
        path: '/t',
        access: 'user',
        summary: 'Lists',
        query: Joi.object({ kind: Joi.string().valid('a', 'b').id('Kind') }).id('ListQuery'),
        status: 200,
        response: Joi.array().items(Joi.object({ kind: Joi.string().valid('a', 'b').id('Kind') })),
        errors: [],
      }),
    };
    const { document: small } = buildOpenApiDocument({ t: table }, { title: 't', version: '1' });
    // RequestText: the rule every request part's strings share (no control characters), referenced by the query's parameter.
    expect(Object.keys(small.components.schemas)).to.have.members(['ProblemDetails', 'RequestText', 'Kind']);
    expect(small.components.schemas).not.to.have.property('ListQuery');
  });
});

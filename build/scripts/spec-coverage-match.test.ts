import { expect } from 'chai';
import { compareOperations, formatCoverage, operationKey } from './spec-coverage-match.ts';

describe('spec coverage matching', () => {
  it('matches by method and path, whatever the parameters are called', () => {
    expect(operationKey('get', '/api/shares/{shareId}/items/{id}')).to.equal(operationKey('GET', '/api/shares/{id}/items/{itemId}'));
    expect(operationKey('GET', '/api/jobs/')).to.equal(operationKey('GET', '/api/jobs'));
    expect(operationKey('GET', '/api/jobs/{id}')).to.not.equal(operationKey('DELETE', '/api/jobs/{id}'));
    expect(operationKey('GET', '/api/jobs/{id}')).to.not.equal(operationKey('GET', '/api/jobs/active'));
  });

  it('reports implemented, missing and extra operations per spec area', () => {
    const spec = [
      { area: 'Jobs', method: 'GET', path: '/api/jobs' },
      { area: 'Jobs', method: 'GET', path: '/api/jobs/{id}' },
      { area: 'Jobs', method: 'POST', path: '/api/jobs/{id}/cancel' },
      { area: 'Auth', method: 'POST', path: '/api/auth/login' },
    ];
    const implemented = [
      { id: 'jobs.get', area: 'jobs', method: 'GET', path: '/api/jobs/{jobId}' },
      { id: 'auth.login', area: 'auth', method: 'POST', path: '/api/auth/login' },
      { id: 'docs.openapi', area: 'docs', method: 'GET', path: '/api/openapi.json' },
    ];
    const coverage = compareOperations(spec, implemented);
    expect(coverage.areas.map((a) => a.area)).to.deep.equal(['Jobs', 'Auth']);
    expect(coverage.areas[0]!.implemented.map((op) => op.path)).to.deep.equal(['/api/jobs/{id}']);
    expect(coverage.areas[0]!.missing.map((op) => op.path)).to.deep.equal(['/api/jobs', '/api/jobs/{id}/cancel']);
    expect(coverage.extras.map((op) => op.id)).to.deep.equal(['docs.openapi']);
    expect(coverage.implementedCount).to.equal(2);
    const report = formatCoverage(coverage);
    expect(report).to.contain('Jobs: 1 of 3 implemented').and.contain('  - POST /api/jobs/{id}/cancel (missing)');
    expect(report).to.contain('  * GET /api/openapi.json (docs.openapi)');
    expect(report.split('\n').at(-1)).to.equal('implemented 2 of 4 operations (2 missing)');
  });
});

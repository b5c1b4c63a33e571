// Prints which operations of the spec the route tables implement: `npm run spec:coverage`.
import { readFileSync } from 'node:fs';
import { api } from '../../shared/src/api/index.ts';
import type { RouteDef } from '../../shared/src/api/route.ts';
import { compareOperations, formatCoverage, type ImplementedOperation, type SpecOperation } from './spec-coverage-match.ts';

// The spec sits beside the repository (../shared/spec from the project root).
const specFile = new URL('../../../shared/spec/operations.json', import.meta.url);
const spec = JSON.parse(readFileSync(specFile, 'utf8')) as SpecOperation[];
const implemented: ImplementedOperation[] = Object.entries(api).flatMap(([area, table]) =>
  Object.values(table as Record<string, RouteDef>).map((route) => ({ id: route.id, area, method: route.method, path: route.path })),
);
console.log(formatCoverage(compareOperations(spec, implemented)));

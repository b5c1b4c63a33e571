/** One operation of the spec (`shared/spec/operations.json`). */
export interface SpecOperation {
  area: string;
  method: string;
  path: string;
}

/** One implemented operation of the route tables. */
export interface ImplementedOperation {
  id: string;
  area: string;
  method: string;
  path: string;
}

export interface AreaCoverage {
  area: string;
  implemented: SpecOperation[];
  missing: SpecOperation[];
}

export interface Coverage {
  areas: AreaCoverage[];
  /** Implemented operations that the spec does not name (for example the OpenAPI document). */
  extras: ImplementedOperation[];
  implementedCount: number;
  total: number;
}

/** Method and path with parameter names dropped: the spec's `{id}` and a table's `{userId}` are the same operation. */
export function operationKey(method: string, path: string): string {
  const normalised = path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '');
  return `${method.toUpperCase()} ${normalised || '/'}`;
}

/** Compares the spec's operations with the implemented ones, area by area in the spec's order. */
export function compareOperations(spec: readonly SpecOperation[], implemented: readonly ImplementedOperation[]): Coverage {
  const implementedKeys = new Set(implemented.map((op) => operationKey(op.method, op.path)));
  const specKeys = new Set(spec.map((op) => operationKey(op.method, op.path)));
  const areas = new Map<string, AreaCoverage>();
  for (const op of spec) {
    const area = areas.get(op.area) ?? { area: op.area, implemented: [], missing: [] };
    areas.set(op.area, area);
    (implementedKeys.has(operationKey(op.method, op.path)) ? area.implemented : area.missing).push(op);
  }
  const list = [...areas.values()];
  return {
    areas: list,
    extras: implemented.filter((op) => !specKeys.has(operationKey(op.method, op.path))),
    implementedCount: list.reduce((n, a) => n + a.implemented.length, 0),
    total: spec.length,
  };
}

/** The human-readable report that `npm run spec:coverage` prints. */
export function formatCoverage(coverage: Coverage): string {
  const lines: string[] = [];
  for (const area of coverage.areas) {
    lines.push(`${area.area}: ${area.implemented.length} of ${area.implemented.length + area.missing.length} implemented`);
    for (const op of area.implemented) lines.push(`  + ${op.method} ${op.path}`);
    for (const op of area.missing) lines.push(`  - ${op.method} ${op.path} (missing)`);
  }
  if (coverage.extras.length > 0) {
    lines.push('Implemented but not in the spec:');
    for (const op of coverage.extras) lines.push(`  * ${op.method} ${op.path} (${op.id})`);
  }
  const missing = coverage.total - coverage.implementedCount;
  lines.push(`implemented ${coverage.implementedCount} of ${coverage.total} operations (${missing} missing)`);
  return lines.join('\n');
}

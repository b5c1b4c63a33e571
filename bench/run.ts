import { platformBench } from './platform.bench.ts';
import { thumbnailsBench } from './thumbnails.bench.ts';
import { printTable, type BenchRow } from './lib/table.ts';

/** `npm run bench`: every benchmark, printed as one table; benchmarks never fail the tests. */
const suites: { name: string; run: () => Promise<BenchRow[]> }[] = [
  { name: 'platform', run: platformBench },
  { name: 'thumbnails', run: thumbnailsBench },
];

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue;
  process.stderr.write(`running ${suite.name} ...\n`);
  rows.push(...(await suite.run()));
}
printTable(rows);

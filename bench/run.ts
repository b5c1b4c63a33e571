import { appsBench } from './apps.bench.ts';
import { backupBench } from './backup.bench.ts';
import { consoleBench } from './console.bench.ts';
import { desktopBench } from './desktop.bench.ts';
import { filesBench } from './files.bench.ts';
import { hostTreeBench } from './host-tree.bench.ts';
import { installerBench } from './installer.bench.ts';
import { logsBench } from './logs.bench.ts';
import { platformBench } from './platform.bench.ts';
import { proxyBench } from './proxy.bench.ts';
import { replicationBench } from './replication.bench.ts';
import { storageBench } from './storage.bench.ts';
import { storeBench } from './store.bench.ts';
import { systemBench } from './system.bench.ts';
import { thumbnailsBench } from './thumbnails.bench.ts';
import { tlsBench } from './tls.bench.ts';
import { transferBench } from './transfer.bench.ts';
import { printTable, type BenchRow } from './lib/table.ts';

/** `npm run bench`: every benchmark, printed as one table; benchmarks never fail the tests. */
const suites: { name: string; run: () => Promise<BenchRow[]> }[] = [
  { name: 'platform', run: platformBench },
  { name: 'desktop', run: desktopBench },
  { name: 'logs', run: logsBench },
  { name: 'thumbnails', run: thumbnailsBench },
  { name: 'files', run: filesBench },
  { name: 'transfer', run: transferBench },
  { name: 'storage', run: storageBench },
  { name: 'host-tree', run: hostTreeBench },
  { name: 'apps', run: appsBench },
  { name: 'tls', run: tlsBench },
  { name: 'proxy', run: proxyBench },
  { name: 'system', run: systemBench },
  { name: 'backup', run: backupBench },
  { name: 'console', run: consoleBench },
  { name: 'installer', run: installerBench },
  { name: 'store', run: storeBench },
  { name: 'replication', run: replicationBench },
];

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue;
  process.stderr.write(`running ${suite.name} ...\n`);
  rows.push(...(await suite.run()));
}
printTable(rows);

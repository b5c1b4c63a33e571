import { readFileSync } from 'node:fs';
import { installPath } from './install-paths.ts';

const pkg = JSON.parse(readFileSync(installPath('package.json'), 'utf8')) as { version: string };

export const product = { name: 'Cellar', version: pkg.version } as const;

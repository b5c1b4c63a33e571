import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';

/** The example app with some manifest fields changed and extra files, built into a package of its own under `work`. */
export async function exampleVariant(work: string, name: string, change: Record<string, unknown>, extra: Record<string, Buffer> = {}): Promise<string> {
  const folder = path.join(work, name);
  cpSync('examples/hello-app', folder, { recursive: true });
  for (const [file, body] of Object.entries(extra)) writeFileSync(path.join(folder, file), body);
  const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ ...manifest, ...change }));
  return buildAppPackage(folder, work);
}

/** Fills `{name}` placeholders of a UI string, as the web does. */
export const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

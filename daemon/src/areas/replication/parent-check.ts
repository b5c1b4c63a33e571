import { isDatasetName } from './receive-grammar.ts';

export type ParentRefusal = 'missing' | 'pool-root' | 'share' | 'home' | 'app';

/**
 * Whether received datasets may go below `parent` on the target: it must be an existing dataset
 * below a pool's top (a stream named like a share at the top could otherwise meet it), and neither
 * a share's, a home's or an app's dataset, nor one holding a share below it.
 */
export function parentRefusal(parent: string, datasets: readonly string[], shareDatasets: readonly string[]): ParentRefusal | null {
  if (!isDatasetName(parent) || !datasets.includes(parent)) return 'missing';
  const [, second] = parent.split('/');
  if (second === undefined) return 'pool-root';
  if (second === 'homes') return 'home';
  if (second === 'apps') return 'app';
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  if (shareDatasets.some((share) => related(parent, share))) return 'share';
  return null;
}

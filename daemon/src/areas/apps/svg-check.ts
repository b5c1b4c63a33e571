import { ProblemError } from '../../core/problem-error.ts';

/**
 * Rules for an app's icon.svg: a picture and nothing else. The icon is served with a sandboxing
 * CSP and shown through <img>, where no script runs; refusing what could act (script, event
 * handlers, embedded documents, outside references, entity declarations) keeps it so wherever
 * the file ends up. Refused rather than cleaned: a package that needs any of it is not a picture.
 */
const rules: [RegExp, string][] = [
  [/<!(DOCTYPE|ENTITY)/i, 'declaration'],
  [/<\s*script\b/i, 'script'],
  [/<\s*(foreignObject|iframe|embed|object|audio|video|animate\w*|set)\b/i, 'activeElement'],
  [/\son[a-z]+\s*=/i, 'eventHandler'],
  [/javascript\s*:/i, 'script'],
  [/(href|src)\s*=\s*["']\s*(?!#)/i, 'outsideReference'],
  [/url\(\s*["']?\s*(?!#)/i, 'outsideReference'],
  [/@import/i, 'outsideReference'],
];

export const maxIconBytes = 256 * 1024;

export function checkSvgIcon(text: string): void {
  if (!/<svg[\s>]/i.test(text)) throw new ProblemError('app.package.icon_invalid', { reason: 'notSvg' });
  for (const [pattern, reason] of rules) if (pattern.test(text)) throw new ProblemError('app.package.icon_invalid', { reason });
}

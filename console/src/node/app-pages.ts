import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { consoleOrigin } from './shell-policy.ts';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The pages' CSP, also sent as a header: nothing but their own files, no connections (every box call goes through the bridge). */
const pageCsp =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer>;
}

/**
 * Answers a request on the console's scheme: a file of the built pages (`dist/renderer`), never
 * one outside that folder, or the page about a box that could not be shown (`/box-failure`).
 */
export async function answerPageRequest(pagesDir: string, requestUrl: string, language: string): Promise<PageAnswer> {
  const url = new URL(requestUrl);
  const notFound: PageAnswer = { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'not found' };
  if (url.origin !== consoleOrigin && `${url.protocol}//${url.host}` !== consoleOrigin) return notFound;
  if (url.pathname === '/box-failure') {
    const reason = url.searchParams.get('reason') === 'certificate' ? 'certificate' : 'unreachable';
    const html = boxFailurePage({ reason, name: url.searchParams.get('name') ?? '', url: url.searchParams.get('url') ?? '', language });
    return { status: 200, headers: { 'Content-Type': types['.html']!, 'Content-Security-Policy': pageCsp }, body: html };
  }
  const relative = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html';
  const file = path.resolve(pagesDir, relative);
  if (file !== path.resolve(pagesDir) && !file.startsWith(path.resolve(pagesDir) + path.sep)) return notFound;
  const type = types[path.extname(file)];
  if (!type) return notFound;
  try {
    return { status: 200, headers: { 'Content-Type': type, 'Content-Security-Policy': pageCsp }, body: new Uint8Array(await readFile(file)) };
  } catch {
    return notFound;
  }
}

/** The address of the page about a box that could not be shown. */
export function boxFailureUrl(reason: 'certificate' | 'unreachable', box: { name: string; url: string }): string {
  const query = new URLSearchParams({ reason, name: box.name, url: box.url });
  return `${consoleOrigin}/box-failure?${query.toString()}`;
}

const words = {
  en: {
    unreachable: {
      title: 'The box does not answer',
      text: 'The console could not reach {name} at {url}. Check that the box is on and on this network, then close this window and open the box again from the console.',
    },
    certificate: {
      title: 'The box was refused',
      text: "{name} at {url} presented a certificate that its trusted root does not vouch for. Nothing was loaded. In the console's list, compare the fingerprint the box shows on its own screen and trust it again.",
    },
  },
  de: {
    unreachable: {
      title: 'Die Box antwortet nicht',
      text: 'Die Konsole hat {name} unter {url} nicht erreicht. Prüfen Sie, ob die Box eingeschaltet und in diesem Netz ist, schließen Sie dann dieses Fenster und öffnen Sie die Box erneut aus der Konsole.',
    },
    certificate: {
      title: 'Die Box wurde abgelehnt',
      text: 'Das Zertifikat von {name} unter {url} wird von ihrem vertrauten Stammzertifikat nicht bestätigt. Es wurde nichts geladen. Vergleichen Sie in der Liste der Konsole den Fingerabdruck, den die Box auf ihrem eigenen Bildschirm zeigt, und vertrauen Sie ihr erneut.',
    },
  },
} as const;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The console's own page for a box window that could not show the box: plain HTML, no script. */
export function boxFailurePage(input: { reason: 'certificate' | 'unreachable'; name: string; url: string; language: string }): string {
  const language = input.language.toLowerCase().startsWith('de') ? 'de' : 'en';
  const text = words[language][input.reason];
  const body = escape(text.text)
    .replace('{name}', `<strong>${escape(input.name)}</strong>`)
    .replace('{url}', `<code>${escape(input.url)}</code>`);
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(text.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em;color:#1b1f24}code{overflow-wrap:anywhere}</style></head>
<body><main><h1>${escape(text.title)}</h1><p data-reason="${input.reason}">${body}</p></main></body></html>
`;
}

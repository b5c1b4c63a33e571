import { app, protocol, type Session } from 'electron';
import { answerPageRequest } from '../node/app-pages.ts';
import { consoleScheme } from '../node/shell-policy.ts';

/** Before ready: app: is a standard, secure scheme (an origin of its own, CSP and storage like https), not file:. */
export function registerConsoleScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: consoleScheme, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false } }]);
}

/** Serves the console's pages (and its page about a box that failed) on app://console in a session. */
export function serveConsolePages(target: Session['protocol'], pagesDir: string): void {
  target.handle(consoleScheme, async (request) => {
    const answer = await answerPageRequest(pagesDir, request.url, app.getLocale());
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
}

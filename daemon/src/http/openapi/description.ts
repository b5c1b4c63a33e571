/** The points of the client contract that every operation shares, as the document's introduction (Markdown). */
export const apiDescription = `
The management API of a Cellar box. Every operation below is generated from the same route declarations that the
daemon validates requests with, so this document lists exactly what the daemon serves.

## Sessions and CSRF
- Sign in with \`POST /api/auth/login\` (\`{"username", "password"}\`). The answer is \`{"state": "signedIn", "user": UserInfo}\`
  or \`{"state": "totpRequired"}\`, after which \`POST /api/auth/login/totp\` with \`{"code"}\` completes the sign-in.
- The session is the cookie \`box.sid\` (HttpOnly, SameSite=Strict, Secure on HTTPS).
- Every successful sign-in also sets the device cookie \`box.device\` (HttpOnly, SameSite=Strict, Secure on HTTPS,
  Path=/api/auth, one year): signed proof that this client signed in as that user before. Failed sign-ins are
  throttled with 429 \`auth.login.throttled\` and \`Retry-After\`, each lock doubling up to 15 minutes. A client with a
  valid device cookie for the name is held only by its own count (5 failures), so failures elsewhere never lock it out;
  other clients are held per name and address (5), per name over all of them (10) and per address (20). The password
  step, the TOTP step, recovery and the current-password checks all count.
- Every POST, PUT, PATCH and DELETE made with a session carries the header \`X-CSRF-Token\` with the session's
  \`csrfToken\` (from the sign-in answer or \`GET /api/auth/session\`); without it the answer is 403 \`auth.csrf.invalid\`.
  The two sign-in requests are exempt but refuse a cross-site \`Origin\`.
- Each operation names who may call it in \`x-access\`: \`public\` (Pub), \`user\` (Usr, any signed-in user), \`admin\` (Adm),
  \`right:<name>\` (a user holding that right; administrators hold all), or \`app\` (the API for installed apps:
  a window's host token as \`Authorization: Bearer\`, never the session cookie; 401 \`app.token.invalid\` without one).
- \`/api/app-backend/<appId>/<path>\` is not the box's API: it carries a window's requests to that app's own backend
  (with a \`backend\` token), whose paths and answers the app defines; this document does not describe them.

## Errors
Every failure is \`application/problem+json\`: \`{"type", "title", "status", "detail", "code", "params"?, "requestId"}\`.
\`code\` is \`area.subject.reason\` and \`params\` carries the values the code names. \`type\` links to the code in the
error catalog at the end of [the documentation page](/api/docs#error-catalog); \`components.x-error-catalog\` lists every code.
Each operation lists the codes it can answer per status (and in \`x-error-codes\`). Fixed codes: 400 \`request.body.invalid\`
and \`request.query.invalid\` (with \`params.errors: [{"path", "message"}]\`), 401 \`auth.session.required\`,
403 \`auth.permission.denied\`, 404 \`request.route.not_found\`, 413 \`request.body.too_large\`.
Every response carries \`X-Request-Id\`; the same id is on the log entries of that request.

## Shapes shared by every area
- int64 ids are JSON numbers; times are ISO 8601 strings in UTC.
- Pages are \`{"items": [...], "nextCursor": "..." | null}\`; pass \`nextCursor\` back as \`cursor\` for the next page.
- A Job is \`{"id", "kind", "state", "progress", "createdAt", "startedAt", "finishedAt", "error", "result", "userId"}\`;
  \`state\` is one of \`queued\`, \`running\`, \`succeeded\`, \`failed\`, \`cancelled\`; \`progress\` is \`{"done", "total", "unit"}\`
  or null; \`error\` is a problem details body or null.

## Live topics (Socket.IO at \`/socket.io\`)
- Connect with the session cookie; a connection without a valid session is refused.
- \`socket.emit("subscribe", {"topic": "jobs/42"}, ack)\`: the ack is \`{"ok": true, "snapshot": ...}\` or
  \`{"ok": false, "problem": ProblemDetails}\` (for example \`auth.permission.denied\`).
- The server then emits \`"event"\` with \`{"topic", "type", "data"}\` for each change; \`"unsubscribe"\` with \`{"topic"}\` stops it.
- A grant change, deactivation or sign-out applies to open connections at once.
`.trim();

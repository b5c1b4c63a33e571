import { load } from './lib/load.ts';
const port = process.argv[2];
const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ username: 'admin', password: 'benchPassword1' }),
});
const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
await load(`http://127.0.0.1:${port}/api/auth/session`, { seconds: 2, concurrency: 16, headers: { Cookie: cookie } });
const r = await load(`http://127.0.0.1:${port}/api/auth/session`, { seconds: 4, concurrency: 16, headers: { Cookie: cookie } });
console.log(r.perSecond);

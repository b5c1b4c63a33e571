// The desktop hands this window its host token by postMessage (and a fresh one before it
// expires); the API for apps takes only that token, as `Authorization: Bearer`, together with
// the window's instance id in `X-Cellar-Instance`.
let token = null;
let backendToken = null;
let instanceId = null;

const strings = {
  en: { hello: (name) => `Hello, ${name}`, notify: 'Send me a notification', sent: 'Sent.', title: 'Hello from the Hello app' },
  de: { hello: (name) => `Hallo, ${name}`, notify: 'Schick mir eine Benachrichtigung', sent: 'Gesendet.', title: 'Hallo von der Hello-App' },
};
let text = strings.en;

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'X-Cellar-Instance': instanceId, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${res.status} ${(await res.json().catch(() => ({}))).code ?? ''}`);
  return res.status === 204 ? null : res.json();
}

async function greet() {
  const me = await call('GET', '/api/app/me');
  text = strings[me.language] ?? strings.en;
  document.documentElement.lang = me.language;
  document.getElementById('greeting').textContent = text.hello(me.user.displayName || me.user.username);
  const button = document.getElementById('notify');
  button.textContent = text.notify;
  button.hidden = !me.permissions.includes('notifications');
}

document.getElementById('notify').addEventListener('click', async () => {
  const status = document.getElementById('status');
  try {
    await call('POST', '/api/app/notifications', { title: text.title, level: 'success' });
    status.textContent = text.sent;
  } catch (err) {
    status.textContent = String(err.message);
  }
});

/** The backend counts visits; it is reached through the box with the window's backend token. */
async function countVisit() {
  const res = await fetch('/api/app-backend/org.example.hello/visit', {
    headers: { Authorization: `Bearer ${backendToken}`, 'X-Cellar-Instance': instanceId },
  });
  if (res.ok) document.getElementById('visits').textContent = `#${(await res.json()).visits}`;
}

window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.data?.type !== 'cellar.token') return;
  instanceId = event.data.instanceId;
  if (event.data.kind === 'backend') {
    const first = backendToken === null;
    backendToken = event.data.token;
    if (first) void countVisit();
    return;
  }
  const first = token === null;
  token = event.data.token;
  if (first) greet().catch((err) => (document.getElementById('status').textContent = String(err.message)));
});

// Ask once the page is ready; the desktop answers with this window's tokens.
window.parent.postMessage({ type: 'cellar.token.request', kind: 'host' }, '*');
window.parent.postMessage({ type: 'cellar.token.request', kind: 'backend' }, '*');

// The desktop hands this window its host token by postMessage; the app API takes only that token.
window.addEventListener('message', (event) => {
  if (event.data?.type !== 'cellar.token') return;
  document.getElementById('greeting').textContent = 'Hello';
});

import { api } from '../../../lib/api.ts';
import { session } from '../../../lib/session.svelte.ts';

const followKey = 'network-follow';

/** The address the page opens at the box's new address: the follow token and change travel in the fragment, never to a server log. */
export function followUrl(url: string, token: string, changeId: string): string {
  return `${url}#${followKey}=${encodeURIComponent(token)}&change=${encodeURIComponent(changeId)}`;
}

/**
 * At start: a page opened by a network change at the box's new address signs in with the change's
 * one-time token (cookies of the old address do not reach this one) and confirms the change from
 * here, since this address evidently works. Without such a fragment it does nothing.
 */
export async function followNetworkChange(): Promise<void> {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get(followKey);
  const changeId = params.get('change');
  if (!token || !changeId) return;
  history.replaceState(null, '', location.pathname + location.search);
  try {
    await api.systemNetwork.followNetwork({ body: { token } });
    session.signedIn(await api.auth.session());
    await api.systemNetwork.confirmNetwork({ params: { changeId } });
  } catch (err) {
    // Too late or a used token: the sign-in page follows, and the box has rolled back or keeps the change.
    console.warn('following the network change failed', err);
  }
}

/** Whether this page's own address still answers (the page's policy allows requests to its own origin only). */
export async function stillHere(timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
    return res.ok;
  } catch {
    return false;
  }
}

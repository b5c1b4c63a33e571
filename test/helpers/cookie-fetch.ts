/** A fetch that keeps cookies like a browser would for one site, so Node tests hold a session. */
export function cookieFetch(base: typeof fetch = fetch): {
  fetch: typeof fetch;
  /** The same cookies over another fetch (one leaving from another address). */
  via: (base: typeof fetch) => typeof fetch;
  cookies: Map<string, string>;
  cookieHeader: () => string;
} {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const via =
    (base: typeof fetch): typeof fetch =>
    async (input, init = {}) => {
      const headers = new Headers(init.headers);
      if (cookies.size && !headers.has('Cookie')) headers.set('Cookie', cookieHeader());
      const response = await base(input, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attrs] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expired =
          attrs.some((a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1] ?? '').getTime() < Date.now()) || attrs.some((a) => /^\s*max-age=0/i.test(a));
        if (expired || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
      return response;
    };
  return { fetch: via(base), via, cookies, cookieHeader };
}

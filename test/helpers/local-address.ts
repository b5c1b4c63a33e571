import http from 'node:http';

/**
 * A fetch whose connections leave from one loopback address (any of 127.0.0.0/8 on Linux): the
 * daemon sees another client address, as a request from another computer would show it. Plain
 * http with a string body only, which is what API tests send.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const headers = Object.fromEntries(new Headers(init.headers));
      if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') throw new Error('fetchFrom sends string bodies only');
      const request = http.request(url, { method: init.method ?? 'GET', headers, localAddress }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, one);
          }
          const status = answer.statusCode ?? 0;
          const body = [101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers: out }));
        });
      });
      request.on('error', reject);
      request.end(init.body ?? undefined);
    });
}

import http from 'node:http';
import https from 'node:https';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
}

export interface LoadOptions {
  seconds: number;
  concurrency: number;
  headers?: Record<string, string>;
  /** The root an https:// URL is trusted by. */
  ca?: string;
}

/** The load generator's loop, in the process load.ts starts (see there); its result goes to stdout as JSON. */
async function run(url: string, options: LoadOptions): Promise<LoadResult> {
  const secure = url.startsWith('https:');
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: options.concurrency, ca: options.ca })
    : new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const get = secure ? https.get : http.get;
  const deadline = Date.now() + options.seconds * 1000;
  let requests = 0;
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = get(url, { agent, headers: options.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) requests++;
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  return { requests, errors, seconds, perSecond: requests / seconds };
}

const { url, options } = JSON.parse(process.argv[2] ?? '') as { url: string; options: LoadOptions };
process.stdout.write(JSON.stringify(await run(url, options)));

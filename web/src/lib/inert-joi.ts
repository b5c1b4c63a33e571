/**
 * What the web build gets for `import Joi from 'joi'` (see vite.config.ts). The web imports the
 * shared route tables for their paths, constants and types, and never validates with them: the
 * daemon validates every request. Building their schemas for nothing would cost joi's 52 KiB
 * (gzip) in the desktop's first load. Every method of this builder answers the builder itself,
 * so a schema declaration of any shape evaluates, and nothing is checked.
 */
type Inert = ((...args: unknown[]) => Inert) & { readonly [key: string]: Inert };

const inert: Inert = new Proxy(function inertSchema() {} as unknown as Inert, {
  // `then` stays undefined, so a schema is never mistaken for a promise.
  get: (_target, key) => (key === 'then' || typeof key === 'symbol' ? undefined : inert),
  apply: () => inert,
});

export default inert;

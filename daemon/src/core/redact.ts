/** Field names whose values never reach a log: passwords, TOTP secrets and codes, keys, tokens. */
const secretKey = /(pass(word|phrase)?|secret|token|authorization|cookie|private_?key|recovery_?codes?|otp|totp_?code)$/i;

export const redacted = '[redacted]';

/** A copy of `value` with every secret field replaced, at any depth. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = secretKey.test(key) ? redacted : redactSecrets(v, depth + 1);
  }
  return out;
}

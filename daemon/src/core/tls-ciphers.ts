/**
 * What the box's TLS servers (the daemon's HTTPS and the reverse proxy's nginx) offer: Mozilla's
 * "intermediate" profile without its finite-field DHE suites. TLS 1.2 only with ECDHE (forward
 * secrecy) and an AEAD cipher (AES-GCM or ChaCha20-Poly1305); no CBC, no static RSA key exchange.
 * TLS 1.3 suites are all AEAD with forward secrecy.
 */
export const tls12Ciphers = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
] as const;

export const tls13Suites = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'] as const;

/** Node's `ciphers` option: TLS 1.3 suites named too, or Node would offer none of them. */
export const nodeCipherList = [...tls13Suites, ...tls12Ciphers].join(':');

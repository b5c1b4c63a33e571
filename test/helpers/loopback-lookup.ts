import { isIP, type LookupFunction } from 'node:net';

/**
 * A resolver for test daemons that never asks DNS: an address literal stands for itself and
 * `localhost` is 127.0.0.1; any other name is not found. A test talks only to loopback and to
 * namespaces it made, and generated inputs (the hostile sweep sends `a` as a pairing's address)
 * must not turn into queries to the machine's name servers.
 */
export const loopbackLookup: LookupFunction = (hostname, options, callback) => {
  const name = hostname.replace(/^\[(.*)\]$/, '$1');
  const address = name === 'localhost' ? '127.0.0.1' : name;
  const family = isIP(address);
  if (family === 0) {
    const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (test daemons resolve no names)`), {
      code: 'ENOTFOUND',
    });
    callback(err, '', 0);
    return;
  }
  if (options.all) (callback as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [{ address, family }]);
  else callback(null, address, family);
};

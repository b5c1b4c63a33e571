import { expect } from 'chai';
import { catalogPlace, mayCarryToken } from './token-origin.ts';

describe('store: where a catalog read token may go', () => {
  it('an https catalog: only its own origin (scheme, host and port)', () => {
    const catalog = 'https://git.example.org/me/catalog.git';
    expect(mayCarryToken('https://git.example.org/me/catalog/releases/a.serviceapp', catalog)).to.equal(true);
    expect(mayCarryToken('https://GIT.example.org:443/a', catalog)).to.equal(true);
    expect(mayCarryToken('https://evil.example/a', catalog)).to.equal(false);
    expect(mayCarryToken('https://git.example.org.evil.example/a', catalog)).to.equal(false);
    expect(mayCarryToken('https://git.example.org:8443/a', catalog)).to.equal(false);
    expect(mayCarryToken('http://git.example.org/a', catalog)).to.equal(false);
    expect(mayCarryToken('https://user@evil.example/a', catalog)).to.equal(false);
    expect(mayCarryToken('not a url', catalog)).to.equal(false);
  });

  it('an SSH catalog: https on its host at any port, nowhere else', () => {
    expect(catalogPlace('git@forge.example:me/catalog.git')).to.deep.equal({ host: 'forge.example', origin: null });
    expect(catalogPlace('ssh://git@forge.example:2222/me/catalog.git')).to.deep.equal({ host: 'forge.example', origin: null });
    expect(catalogPlace('git@[::1]:catalog.git')).to.deep.equal({ host: '[::1]', origin: null });
    expect(mayCarryToken('https://forge.example:3000/me/a.serviceapp', 'git@forge.example:me/catalog.git')).to.equal(true);
    expect(mayCarryToken('https://other.example/a', 'git@forge.example:me/catalog.git')).to.equal(false);
    expect(mayCarryToken('https://forge.example/a', 'ssh://git@forge.example:2222/me/catalog.git')).to.equal(true);
    expect(mayCarryToken('http://forge.example/a', 'ssh://git@forge.example:2222/me/catalog.git')).to.equal(false);
  });
});

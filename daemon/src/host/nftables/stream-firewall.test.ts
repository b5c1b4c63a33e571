import { expect } from 'chai';
import { renderStreamRules } from './stream-firewall.ts';

describe('stream firewall rules', () => {
  it("replaces the proxy's table in one go with the streams' ports", () => {
    const rules = renderStreamRules([
      { port: 2222, protocols: ['tcp'] },
      { port: 5353, protocols: ['tcp', 'udp'] },
    ]);
    expect(rules).to.equal(
      [
        'table inet cellar_proxy',
        'delete table inet cellar_proxy',
        'table inet cellar_proxy {',
        '  chain input {',
        '    type filter hook input priority filter; policy accept;',
        '    tcp dport { 2222, 5353 } accept',
        '    udp dport { 5353 } accept',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('leaves no table when no stream is open', () => {
    expect(renderStreamRules([])).to.equal('table inet cellar_proxy\ndelete table inet cellar_proxy\n');
  });
});

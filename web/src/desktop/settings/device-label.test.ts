import { expect } from 'chai';
import { describeAgent } from './device-label.ts';

describe('describeAgent: a device named by its browser', () => {
  it('names browser and system of common agents', () => {
    const cases: [string, string | null, string | null][] = [
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox', 'Windows'],
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome', 'Linux'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari', 'macOS'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0', 'Edge', 'Windows'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', 'Chrome', 'Android'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari',
        'iOS',
      ],
      ['curl/8.5.0', null, null],
    ];
    for (const [agent, browser, system] of cases) {
      expect(describeAgent(agent), agent).to.deep.equal(browser || system ? { browser, system } : null);
    }
  });

  it('answers null without an agent', () => {
    expect(describeAgent(null)).to.equal(null);
    expect(describeAgent('')).to.equal(null);
  });
});

import { expect } from 'chai';
import { ProblemError } from '../../core/problem-error.ts';
import { decodeCursor, encodeCursor } from './log-cursor.ts';

describe('log cursor codec', () => {
  it('round-trips time and id', () => {
    const cursor = { time: Date.parse('2026-11-22T03:00:00.123Z'), id: 987654321 };
    const text = encodeCursor(cursor);
    expect(text).to.match(/^l1\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).to.deep.equal(cursor);
  });

  for (const bad of [
    '',
    'abc',
    'l1.',
    'l1.!!!',
    `l1.${Buffer.from('1:x').toString('base64url')}`,
    `l1.${Buffer.from('-1:2').toString('base64url')}`,
    `l1.${Buffer.from('1:2:3').toString('base64url')}`,
    `l1.${Buffer.from('99999999999999999:1').toString('base64url')}`,
  ]) {
    it(`refuses ${JSON.stringify(bad)} with logs.cursor.invalid`, () => {
      let caught: unknown;
      try {
        decodeCursor(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(ProblemError);
      expect((caught as ProblemError).code).to.equal('logs.cursor.invalid');
    });
  }
});

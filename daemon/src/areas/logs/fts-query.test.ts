import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ftsMatchQuery, searchTerms, textMatches, textTokens } from './fts-query.ts';
import { LogDb } from './log-db.ts';

describe('FTS query escaping', () => {
  let dir: string;
  let db: LogDb;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-fts-'));
    db = await LogDb.open(path.join(dir, 'logs.sqlite'));
    const rows = [
      ['disk sdb failed SMART self-test', '{"component":"storage","disk":"sdb"}'],
      ['user "admin" signed in', '{"component":"auth"}'],
      ['Überprüfung der Platte abgeschlossen', '{}'],
      ['NEAR(a b) AND OR NOT * ^ column:value', '{"weird":"x"}'],
    ];
    for (const [message, fields] of rows) {
      await db.run("INSERT INTO log_entries (time, level, source, message, fields) VALUES (1, 'info', 'daemon', ?, ?)", [message as string, fields as string]);
    }
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function search(text: string): Promise<string[]> {
    const match = ftsMatchQuery(searchTerms(text));
    if (!match) return [];
    const rows = await db.all<{ message: string }>(
      'SELECT e.message FROM log_entries e WHERE e.id IN (SELECT rowid FROM log_fts WHERE log_fts MATCH ?) ORDER BY e.id',
      [match],
    );
    return rows.map((r) => r.message);
  }

  const hostile = [
    '"',
    '""',
    "'",
    '(',
    ')',
    'NEAR(',
    'a AND',
    'OR',
    'NOT x',
    '*',
    '^',
    'column:value',
    '{',
    'message:disk',
    '-',
    '+',
    'a"b',
    '\\',
    '\u0000',
    'select * from log_entries;',
  ];
  for (const text of hostile) {
    it(`never breaks the FTS5 syntax: ${JSON.stringify(text)}`, async () => {
      const found = await search(text);
      expect(found).to.be.an('array');
    });
  }

  it('finds words in message and fields, ANDed, with prefix matching', async () => {
    expect(await search('disk sdb')).to.deep.equal(['disk sdb failed SMART self-test']);
    expect(await search('stor')).to.deep.equal(['disk sdb failed SMART self-test']);
    expect(await search('disk auth')).to.deep.equal([]);
    expect(await search('"admin"')).to.deep.equal(['user "admin" signed in']);
    expect(await search('self-test')).to.deep.equal(['disk sdb failed SMART self-test']);
  });

  it('treats operators as plain words', async () => {
    expect(await search('NEAR(a')).to.deep.equal(['NEAR(a b) AND OR NOT * ^ column:value']);
    expect(await search('column:value')).to.deep.equal(['NEAR(a b) AND OR NOT * ^ column:value']);
  });

  it('folds case and diacritics like unicode61', async () => {
    expect(await search('uberprufung')).to.deep.equal(['Überprüfung der Platte abgeschlossen']);
    expect(textTokens('Überprüfung, DER')).to.deep.equal(['uberprufung', 'der']);
  });

  it('has an in-memory twin that agrees with FTS5 (used for the archive)', async () => {
    const texts = ['disk sdb', 'stor', 'disk auth', 'self-test', 'NEAR(a', 'uberprufung', 'admin signed', 'signed admin'];
    const all = await db.all<{ message: string; fields: string }>('SELECT message, fields FROM log_entries ORDER BY id');
    for (const text of texts) {
      const inMemory = all.filter((r) => textMatches(searchTerms(text), [r.message, r.fields])).map((r) => r.message);
      expect(inMemory, text).to.deep.equal(await search(text));
    }
  });

  it('answers no query for text without a word', () => {
    expect(ftsMatchQuery(searchTerms('"" ** ()'))).to.equal(null);
  });
});

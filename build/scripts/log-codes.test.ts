import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from '../../test/helpers/source-files.ts';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { deMessages, enMessages } from '../../web/src/lib/i18n/dictionaries.ts';
import uncodedAllowed from './uncoded-logs.json' with { type: 'json' };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One `logger.info|warn|error(message, { ... })` call of the daemon, as the source says it. */
interface LogCall {
  /** `daemon/src/<file>: <message>` */
  where: string;
  /** The codes `logCode` names: one literal, or both branches of `cond ? 'a' : 'b'`; empty without a code. */
  codes: string[];
  /** Names the fields object spells out; null when a spread may add more. */
  fieldNames: string[] | null;
}

const logReceiver = /(^|\.)(logger|log)$/;

function literals(node: ts.Expression): string[] {
  if (ts.isStringLiteralLike(node)) return [node.text];
  if (!ts.isConditionalExpression(node)) return [];
  const both = [...literals(node.whenTrue), ...literals(node.whenFalse)];
  return both.length === 2 ? both : [];
}

function logCalls(): LogCall[] {
  const calls: LogCall[] = [];
  for (const file of sourceFiles(path.join(root, 'daemon/src'))) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ['info', 'warn', 'error'].includes(node.expression.name.text) &&
        logReceiver.test(node.expression.expression.getText(source)) &&
        node.arguments[0]
      ) {
        const [message, fields] = node.arguments;
        const said = ts.isStringLiteralLike(message) ? message.text : message.getText(source);
        let codes: string[] = [];
        let fieldNames: string[] | null = [];
        if (fields && ts.isObjectLiteralExpression(fields)) {
          for (const property of fields.properties) {
            if (ts.isSpreadAssignment(property)) fieldNames = null;
            else if (property.name && ts.isIdentifier(property.name)) {
              if (property.name.text === 'logCode' && ts.isPropertyAssignment(property)) codes = literals(property.initializer);
              fieldNames?.push(property.name.text);
            }
          }
        } else if (fields) fieldNames = null;
        calls.push({ where: `${path.relative(root, file)}: ${said}`, codes, fieldNames });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

describe('log message codes of the daemon', () => {
  const calls = logCalls();

  it('finds the log calls of the daemon', () => {
    expect(calls.length).to.be.greaterThan(150);
    expect(calls.filter((c) => c.codes.length > 0).length).to.be.greaterThan(80);
  });

  it('gives every log call a code but those listed in uncoded-logs.json, and that list only shrinks', () => {
    const uncoded = [...new Set(calls.filter((c) => c.codes.length === 0).map((c) => c.where))].sort();
    // A new call without a code fails here; so does a listed call that has one now (take it off the list).
    expect(uncoded).to.deep.equal([...uncodedAllowed].sort());
  });

  it('has an en and a de text for every code, naming only fields the call gives', () => {
    const problems: string[] = [];
    for (const [call, code] of calls.flatMap((c) => c.codes.map((one) => [c, one] as const))) {
      const key = `logs.msg.${code}`;
      for (const [language, messages] of [
        ['en', enMessages],
        ['de', deMessages],
      ] as const) {
        const text = (messages as Record<string, string>)[key];
        if (text === undefined) {
          problems.push(`${call.where}: no ${language} text ${key}`);
          continue;
        }
        const names = call.fieldNames;
        if (names === null) continue;
        for (const name of placeholders(text))
          if (!names.includes(name)) problems.push(`${call.where}: ${language} ${key} names {${name}}, which the call does not give`);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('keeps the en and de placeholders of each log text the same', () => {
    const keys = Object.keys(enMessages).filter((k) => k.startsWith('logs.msg.'));
    const differ = keys.filter(
      (k) =>
        placeholders((enMessages as Record<string, string>)[k] as string)
          .sort()
          .join() !==
        placeholders((deMessages as Record<string, string>)[k] ?? '')
          .sort()
          .join(),
    );
    expect(differ).to.deep.equal([]);
  });
});

/**
 * What joi-to-json gets wrong, put right around it: before the conversion on joi's description,
 * after it on the JSON schema. Each rule here exists because an instance the daemon accepts or
 * answers failed the document (issue 30): `.when()` on a sibling key was dropped, a regex flag
 * ended up in the pattern, an address in CIDR form was documented as a bare address, a nullable
 * address matched both `oneOf` format branches, and integers carried no `format`; and because
 * the hostile-input sweep met requests the document accepts and the daemon refuses: the cases of
 * `Joi.alternatives().conditional()` lost their conditions, objects their least number of keys,
 * base64 strings their alphabet, and numbers the values `allow()` lets past their rules.
 */

type Node = Record<string, unknown> & {
  type?: string;
  flags?: Record<string, unknown>;
  allow?: unknown[];
  invalid?: unknown[];
  rules?: { name: string; args?: Record<string, unknown> }[];
  keys?: Record<string, Node>;
  whens?: When[];
  metas?: Record<string, unknown>[];
};
type When = { ref?: { path?: string[] }; is?: Node; then?: Node; otherwise?: Node; switch?: When[] };

import parse from 'joi-to-json';

/** Told what cannot be documented faithfully; the conversion then keeps joi-to-json's own result. */
export type Report = (problem: string) => void;

/** Carries the JSON Schema built here through joi-to-json, which copies `x-` metas verbatim. */
const allOfMeta = 'x-cellar-allOf';
const anyOfMeta = 'x-cellar-anyOf';
const valuesMeta = 'x-cellar-additionalProperties';
const namesMeta = 'x-cellar-propertyNames';

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Literal values of an `allow` list (joi puts an `{ override: true }` marker first in `is`). */
function literals(list: unknown[] | undefined): unknown[] {
  return (list ?? []).filter((v) => !isNode(v));
}

/** What a `then`/`otherwise` of `Joi.required()`, `.forbidden()`, `.valid(...)` or `.invalid(...)` says about key `key`. */
function effect(key: string, node: Node, where: string): Record<string, unknown> {
  const { type, flags = {}, allow, invalid, ...rest } = node;
  const { presence, only, ...otherFlags } = flags;
  if (type !== 'any' || Object.keys(rest).length > 0 || Object.keys(otherFlags).length > 0)
    throw new Error(`${where}: only Joi.required(), forbidden(), valid() and invalid() can be documented in a .when()`);
  const parts: Record<string, unknown>[] = [];
  if (presence === 'forbidden') parts.push({ not: { required: [key] } });
  if (presence === 'required') parts.push({ required: [key] });
  if (only) parts.push({ properties: { [key]: { enum: literals(allow) } } });
  if (invalid?.length) parts.push({ properties: { [key]: { not: { enum: literals(invalid) } } } });
  return parts.length === 1 ? parts[0]! : { allOf: parts };
}

/** `key: x.when('sibling', { is, then, otherwise })` as `if`/`then`/`else` on the object holding both keys. */
function condition(key: string, when: When): Record<string, unknown> {
  const sibling = when.ref?.path;
  const values = literals(when.is?.allow);
  if (!sibling || sibling.length !== 1 || when.switch || !when.is?.flags?.only || values.length === 0)
    throw new Error(`.when() on ${key}: only a sibling key compared with literal values can be documented`);
  const name = sibling[0]!;
  const out: Record<string, unknown> = { if: { properties: { [name]: { enum: values } }, required: [name] } };
  if (when.then) out.then = effect(key, when.then, `.when() on ${key}`);
  if (when.otherwise) out.else = effect(key, when.otherwise, `.when() on ${key}`);
  return out;
}

/** Letters of a regex source matched in either case, for a pattern that had the `i` flag. */
function caseless(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      // An escape stays as written, with its `{...}` argument (\p{L}, \u{...}).
      let end = i + 2;
      if (source[i + 2] === '{') end = source.indexOf('}', i) + 1;
      out += source.slice(i, end);
      i = end - 1;
    } else if (inClass) {
      if (c === ']') inClass = false;
      const range = /^([a-zA-Z])-([a-zA-Z])/.exec(source.slice(i));
      if (range) {
        const [whole, from, to] = range as unknown as [string, string, string];
        const other = from === from.toLowerCase() ? `${from.toUpperCase()}-${to.toUpperCase()}` : `${from.toLowerCase()}-${to.toLowerCase()}`;
        out += whole + other;
        i += whole.length - 1;
      } else out += /[a-zA-Z]/.test(c) ? c + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === '^') out += source[++i];
    } else out += /[a-zA-Z]/.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
  }
  return out;
}

/** `/source/flags` as joi describes a pattern, written without flags: `i` into the pattern; `u` is how JSON Schema reads patterns anyway. */
function flaglessPattern(regex: string): string {
  const slash = regex.lastIndexOf('/');
  const flags = regex.slice(slash + 1);
  const source = regex.slice(1, slash);
  if (/[^iu]/.test(flags)) throw new Error(`pattern ${regex}: only the i and u flags can be written into a JSON Schema pattern`);
  return `/${flags.includes('i') ? caseless(source) : source}/`;
}

const v4 = String.raw`(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])`;
const h = '[0-9A-Fa-f]{1,4}';
const v6 = [
  `(?:${h}:){7}${h}`,
  `(?:${h}:){1,7}:`,
  `(?:${h}:){1,6}:${h}`,
  ...[2, 3, 4, 5].map((n) => `(?:${h}:){1,${7 - n}}(?::${h}){1,${n}}`),
  `${h}:(?::${h}){1,6}`,
  `:(?:(?::${h}){1,7}|:)`,
  `(?:${h}:){6}${v4}`,
  `(?:(?:${h}:){0,5}${h})?::(?:${h}:){0,5}${v4}`,
].join('|');
/** An address with its prefix length, as joi's `ip({ cidr: 'required' })` accepts it. */
export const cidrPattern = `^(?:${v4}/(?:3[0-2]|[12]?[0-9])|(?:${v6})/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9]))$`;

/** joi's `ip()`: the versions it names (all when it names none), with or without a prefix length. */
function ipAlternatives(options: Record<string, unknown>): Record<string, unknown>[] {
  const named = options.version as string[] | string | undefined;
  const versions = named === undefined ? ['ipv4', 'ipv6'] : [named].flat();
  const bare = versions.map((format) => ({ format }));
  if (options.cidr === 'required') return [{ pattern: cidrPattern }];
  if (options.cidr === 'forbidden') return bare;
  return [...bare, { pattern: cidrPattern }];
}

/** One description converted on its own (a map's keys or values), with what this module puts right. */
function convertPart(node: Node, report: Report): unknown {
  const described = rewriteDescription(node, report);
  return finishSchema(parse({ describe: () => described } as never, 'open-api-3.1'));
}

/** A key's schema narrowed to `values` (a case's `is`) or widened by refusing them (the `otherwise`). */
function withKey(node: Node | undefined, key: string, values: unknown[], how: 'only' | 'not'): Node | undefined {
  if (node?.type !== 'object' || !node.keys?.[key]) return undefined;
  const child = node.keys[key];
  const narrowed: Node =
    how === 'only'
      ? { type: values.every((v) => typeof v === 'string') ? 'string' : 'any', flags: { only: true, presence: 'required' }, allow: values }
      : { ...child, invalid: [...(child.invalid ?? []), ...values] };
  return { ...node, keys: { ...node.keys, [key]: narrowed } };
}

/**
 * `Joi.alternatives().conditional('.kind', { switch: [{ is, then }], otherwise })`: joi-to-json keeps the
 * branches and drops the conditions, so each case would accept the others' kinds. Each case becomes its
 * object with `kind` narrowed to its `is` values; `otherwise` refuses all of them, as it only meets the rest.
 */
function conditionalCases(node: Node): Node {
  const matches = node.matches as (When & { schema?: Node })[] | undefined;
  if (node.type !== 'alternatives' || !matches || matches.length !== 1 || !matches[0]!.ref) return node;
  const [match] = matches;
  const key = match!.ref!.path;
  const cases = match!.switch ?? [match!];
  if (!key || key.length !== 1 || cases.some((c) => !c.is?.flags?.only || literals(c.is.allow).length === 0)) return node;
  const all = cases.flatMap((c) => literals(c.is!.allow));
  const branches: Node[] = [];
  for (const c of cases) {
    const then = withKey(c.then, key[0]!, literals(c.is!.allow), 'only');
    if (!then) return node;
    branches.push(then);
  }
  const otherwise = cases.at(-1)!.otherwise;
  if (otherwise) {
    const rest = withKey(otherwise, key[0]!, all, 'not');
    if (!rest) return node;
    branches.push(rest);
  }
  return { ...node, matches: branches.map((schema) => ({ schema })) };
}

/** Joi's default base64 (padded, standard alphabet), which joi-to-json leaves out. */
const base64Pattern = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

/**
 * `Joi.string().pattern(p).allow('')`: joi-to-json keeps only null of `allow`, so the document would
 * refuse the allowed value that the rules do not let through. Such a node becomes "the rules, or one of these".
 */
function splitAllowed(node: Node): Node {
  const values = literals(node.allow).filter((v) => v !== null);
  const strict = (node.rules ?? []).some((r) => r.name !== 'max' && r.name !== 'trim' && r.name !== 'case');
  if ((node.type !== 'string' && node.type !== 'number') || node.flags?.only || node.flags?.id || values.length === 0 || !strict) return node;
  // Presence and conditions on a sibling belong to the key, outside the alternatives.
  const { allow, whens, flags = {}, ...rest } = node;
  const { presence, ...innerFlags } = flags;
  const nullable = (allow ?? []).includes(null);
  return {
    type: 'alternatives',
    flags: presence === undefined ? {} : { presence },
    ...(whens ? { whens } : {}),
    matches: [{ schema: { ...rest, flags: innerFlags } }, { schema: { type: 'any', flags: { only: true }, allow: nullable ? [...values, null] : values } }],
  };
}

/** The description as joi-to-json can convert it faithfully. */
export function rewriteDescription(input: unknown, report: Report): unknown {
  if (Array.isArray(input)) return input.map((x) => rewriteDescription(x, report));
  if (!isNode(input)) return input;
  const node = conditionalCases(splitAllowed(input));
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'allow' || key === 'invalid' ? value : rewriteDescription(value, report);
  const metas = [...(out.metas ?? [])];
  if (out.type === 'object' && out.keys) {
    const conditions: Record<string, unknown>[] = [];
    for (const [key, child] of Object.entries(out.keys)) {
      if (!child.whens) continue;
      try {
        conditions.push(...child.whens.map((when) => condition(key, when)));
      } catch (err) {
        report((err as Error).message);
        continue;
      }
      const { whens: _, ...rest } = child;
      out.keys[key] = rest;
    }
    if (conditions.length > 0) metas.push({ [allOfMeta]: conditions });
  }
  // `Joi.object().pattern(Joi.string(), value)`, a map: joi-to-json knows only regex keys and drops it.
  const patterns = out.patterns as { schema?: Node; regex?: string; rule?: Node }[] | undefined;
  const [map, ...more] = patterns ?? [];
  if (out.type === 'object' && map?.schema && map.rule && more.length > 0) report('a map with more than one key schema cannot be documented');
  else if (out.type === 'object' && map?.schema && map.rule) {
    delete out.patterns;
    metas.push({ [valuesMeta]: convertPart(map.rule, report) });
    const names = convertPart(map.schema, report) as Record<string, unknown>;
    if (Object.keys(names).some((k) => k !== 'type')) metas.push({ [namesMeta]: names });
  }
  if (out.type === 'object')
    for (const rule of out.rules ?? []) {
      if ((rule.name === 'min' || rule.name === 'max') && typeof rule.args?.limit === 'number')
        metas.push({ [allOfMeta]: [{ [rule.name === 'min' ? 'minProperties' : 'maxProperties']: rule.args.limit }] });
    }
  if (out.type === 'string' && out.rules) {
    out.rules = out.rules.flatMap((rule) => {
      const base64 = rule.args?.options as { urlSafe?: boolean; paddingRequired?: boolean } | undefined;
      if (rule.name === 'base64' && !base64?.urlSafe && base64?.paddingRequired !== false) {
        metas.push({ [allOfMeta]: [{ pattern: base64Pattern }] });
        return [];
      }
      if (rule.name === 'pattern' && typeof rule.args?.regex === 'string') {
        try {
          return [{ ...rule, args: { ...rule.args, regex: flaglessPattern(rule.args.regex) } }];
        } catch (err) {
          report((err as Error).message);
          return [rule];
        }
      }
      if (rule.name !== 'ip') return [rule];
      const alternatives = ipAlternatives((rule.args?.options ?? {}) as Record<string, unknown>);
      if (alternatives.length === 1) metas.push(alternatives[0]!.format ? { format: alternatives[0]!.format } : { [allOfMeta]: alternatives });
      // Formats are annotations for other types, so a nullable address would match every format branch: anyOf, not oneOf.
      else metas.push({ [anyOfMeta]: alternatives });
      return [];
    });
  }
  if (metas.length > 0) out.metas = metas;
  return out;
}

const int32 = 2 ** 31;

/** The converted schema with the carried-through parts in place and integers given their format. */
export function finishSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(finishSchema);
  if (!isNode(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === 'enum' || key === 'const' || key === 'default' ? value : finishSchema(value);
  const allOf = [...((out.allOf as unknown[]) ?? []), ...((out[allOfMeta] as unknown[]) ?? [])];
  delete out[allOfMeta];
  const anyOf = out[anyOfMeta] as unknown[] | undefined;
  delete out[anyOfMeta];
  if (anyOf && out.anyOf) allOf.push({ anyOf });
  else if (anyOf) out.anyOf = anyOf;
  if (allOf.length > 0) out.allOf = allOf;
  for (const [meta, keyword] of [
    [valuesMeta, 'additionalProperties'],
    [namesMeta, 'propertyNames'],
  ] as const) {
    if (meta in out) out[keyword] = out[meta];
    delete out[meta];
  }
  const types = [out.type].flat();
  if (types.includes('integer') && out.format === undefined) {
    const { minimum, maximum } = out as { minimum?: number; maximum?: number };
    const fits = minimum !== undefined && maximum !== undefined && minimum >= -int32 && maximum < int32;
    out.format = fits ? 'int32' : 'int64';
  }
  return out;
}

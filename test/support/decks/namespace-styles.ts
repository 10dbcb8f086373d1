/**
 * Namespace declaration styles, for tests: the same package rewritten into equivalent XML the way other
 * producers write it (Namespaces in XML 1.0 allows each of these). Works on the text with the tokenizer of
 * namespace-prefixes.ts, never with src/engine: a fixture the engine made would prove nothing about the engine.
 *
 * - `declared-on-use`: no declaration on the root beyond what the root itself names; each element declares the
 *   namespaces its own name, attributes and mc prefix lists use, where the parent does not already bind them
 *   (some .NET tools write `<p:sldId r:id="rId2" xmlns:r="…"/>`).
 * - `explicit-xml`: an `xmlns:xml` declaration on the root, and the root's namespace as the default namespace
 *   (some Go tools).
 * - `default-namespace`: the root's namespace as the default namespace, its elements unprefixed.
 * - `renamed`: every prefix renamed (namespace-prefixes.ts `renamePrefixes`).
 * - `sheet-names`: in chart parts, sheet names quoted in every other formula (`'Sheet1'!A2:A5`) and bare in the
 *   others (`Sheet1!$B$1`), `$` dropped from the quoted ones: the same cells, written differently.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import {
  ATTRIBUTE,
  isWorkbook,
  isXml,
  MC,
  PREFIX_LISTS,
  renamePrefixes,
  seeded,
  TOKEN,
  XML_NS,
} from './namespace-prefixes.js';
import { readXmlTree } from '../readers/xml-tree.js';

export const NAMESPACE_STYLES = [
  'declared-on-use',
  'explicit-xml',
  'default-namespace',
  'renamed',
  'sheet-names',
] as const;
export type NamespaceStyle = (typeof NAMESPACE_STYLES)[number];

function prefixOf(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? '' : qname.slice(0, colon);
}

function localOf(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

const isDeclaration = (name: string): boolean => name === 'xmlns' || name.startsWith('xmlns:');

/**
 * Rewrites every start and end tag of `xml` keeping its written names: `declare(tag, needed, scope, depth)`
 * returns the declarations the output tag carries, given the bindings its names need (prefix → URI, '' for the
 * default namespace) and the bindings the output already has in scope; `rename` may give an element a new name.
 */
function restyleTags(
  xml: string,
  declare: (
    original: [string, string][],
    needed: Map<string, string>,
    outScope: ReadonlyMap<string, string>,
    isRoot: boolean,
  ) => [string, string][],
  rename: (name: string, uri: string) => string = (name) => name,
): string {
  const inScopes: Map<string, string>[] = [new Map([['xml', XML_NS]])];
  const outScopes: Map<string, string>[] = [new Map([['xml', XML_NS]])];
  const names: string[] = [];
  let isRoot = true;
  return xml.replace(
    TOKEN,
    (token, close: string | undefined, open: string | undefined, attrText = '', slash = '') => {
      if (close) {
        inScopes.pop();
        outScopes.pop();
        return `</${names.pop()}>`;
      }
      if (!open) return token;
      const attrs: [string, string][] = [];
      for (const m of (attrText as string).matchAll(ATTRIBUTE)) attrs.push([m[1]!, m[2]!.slice(1, -1)]);
      const scope = new Map(inScopes[inScopes.length - 1]);
      const original = attrs.filter(([n]) => isDeclaration(n));
      for (const [n, v] of original) scope.set(n === 'xmlns' ? '' : n.slice(6), v);
      const elementUri = scope.get(prefixOf(open)) ?? '';
      const name = rename(open, elementUri);
      const needed = new Map<string, string>();
      const need = (prefix: string): void => {
        const uri = scope.get(prefix);
        if (prefix !== 'xml' && uri !== undefined) needed.set(prefix, uri);
      };
      if (name.includes(':')) need(prefixOf(name));
      else needed.set('', name === open ? (scope.get('') ?? '') : elementUri);
      for (const [n, v] of attrs) {
        if (isDeclaration(n)) continue;
        if (n.includes(':')) need(prefixOf(n));
        const isList =
          PREFIX_LISTS.has(localOf(n)) &&
          (n.includes(':') ? scope.get(prefixOf(n)) === MC : elementUri === MC);
        if (isList) for (const p of v.split(/\s+/).filter(Boolean)) need(p);
      }
      const outScope = new Map(outScopes[outScopes.length - 1]);
      const declarations = declare(original, needed, outScope, isRoot);
      isRoot = false;
      for (const [n, v] of declarations) outScope.set(n === 'xmlns' ? '' : n.slice(6), v);
      const others = attrs.filter(([n]) => !isDeclaration(n));
      const text = [...declarations, ...others].map(([n, v]) => ` ${n}="${v}"`).join('');
      if (slash !== '/') {
        inScopes.push(scope);
        outScopes.push(outScope);
        names.push(name);
      }
      return `<${name}${text}${slash}>`;
    },
  );
}

/** The declarations `needed` lacks in `outScope`: what an element must declare for its own names. */
function missing(needed: Map<string, string>, outScope: ReadonlyMap<string, string>): [string, string][] {
  const out: [string, string][] = [];
  for (const [prefix, uri] of needed) {
    if ((outScope.get(prefix) ?? '') === uri) continue;
    if (prefix !== '' && uri === '') continue; // an undeclared prefix stays as the producer wrote it
    out.push([prefix === '' ? 'xmlns' : `xmlns:${prefix}`, uri]);
  }
  return out;
}

/** Every namespace declared on the elements that use it. */
export function declareOnUse(xml: string): string {
  return restyleTags(xml, (_original, needed, outScope) => missing(needed, outScope));
}

/**
 * The root's namespace as the default one: its elements lose their prefix (attributes keep theirs: the default
 * namespace does not apply to them). Left as it was when the part has a default namespace or unprefixed
 * elements already (a relationships part, SpreadsheetML). `withXmlPrefix` adds `xmlns:xml` on the root.
 */
export function defaultNamespace(xml: string, withXmlPrefix = false): string {
  const root = /<([^\s/>!?]+)[\s/>]/.exec(xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''));
  const declared = root && new RegExp(`\\sxmlns:${prefixOf(root[1]!)}\\s*=\\s*"([^"]*)"`).exec(xml);
  const unprefixed = /<[^\s/>!?:]+[\s/>]/.test(
    xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, ''),
  );
  const main = !root || !declared || /\sxmlns\s*=/.test(xml) || unprefixed ? undefined : declared[1]!;
  return restyleTags(
    xml,
    (original, _needed, _outScope, isRoot) => [
      ...(isRoot && main !== undefined ? [['xmlns', main] as [string, string]] : []),
      ...(isRoot && withXmlPrefix ? [['xmlns:xml', XML_NS] as [string, string]] : []),
      ...original,
    ],
    (name, uri) => (main !== undefined && uri === main ? localOf(name) : name),
  );
}

const BARE_SHEET = /^[\p{L}_][\p{L}\p{N}_.]*$/u;
const CELL_LIKE = /^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$/;

/**
 * One chart formula written the other way: a bare sheet name quoted and its `$` dropped (`quote`), or a quoted
 * name that Excel would write bare unquoted. Formulas that are not `sheet!cells` stay as they are.
 */
function requote(formula: string, quote: boolean): string {
  return formula.replace(
    /('(?:[^']|'')+'|[^\s'(),!]+)!(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)/g,
    (whole, sheet: string, cells: string) => {
      const quoted = sheet.startsWith("'");
      const name = quoted ? sheet.slice(1, -1).replace(/''/g, "'") : sheet;
      if (name.includes('[')) return whole;
      if (quote) return `'${name.replace(/'/g, "''")}'!${cells.replace(/\$/g, '')}`;
      return BARE_SHEET.test(name) && !CELL_LIKE.test(name) ? `${name}!${cells}` : whole;
    },
  );
}

/** Chart formulas quoted in every other `f` element and bare in the rest (see `requote`). */
export function mixSheetNames(xml: string): string {
  let n = 0;
  return xml.replace(
    /<((?:[\w.-]+:)?f)(\s[^>]*)?>([^<]*)<\/\1>/g,
    (_whole, name: string, attrs = '', formula: string) =>
      `<${name}${attrs}>${requote(formula, n++ % 2 === 0)}</${name}>`,
  );
}

function restylePart(item: string, xml: string, style: NamespaceStyle, random: () => number): string {
  switch (style) {
    case 'declared-on-use':
      return declareOnUse(xml);
    case 'explicit-xml':
      return defaultNamespace(xml, true);
    case 'default-namespace':
      return defaultNamespace(xml);
    case 'renamed':
      return renamePrefixes(xml, random);
    case 'sheet-names':
      return /(^|\/)charts\/[^/]+\.xml$/i.test(item) ? mixSheetNames(xml) : xml;
  }
}

/** Every XML part of `bytes` (and of the workbooks it embeds) rewritten in `style`. */
export function restylePackage(
  bytes: Uint8Array,
  style: NamespaceStyle,
  random: () => number = seeded(1),
): Uint8Array<ArrayBuffer> {
  const files = unzipSync(bytes);
  for (const [item, data] of Object.entries(files)) {
    // A UTF-16 part (rare) is left as it was: the tokenizer reads UTF-8 text.
    if (isXml(item) && data[0] !== 0xff && data[0] !== 0xfe) {
      const text = strFromU8(data);
      // Some add-ins store opaque non-XML blobs under .xml names (customXml items): left as they are.
      if (/^\uFEFF?\s*</.test(text)) files[item] = strToU8(restylePart(item, text, style, random));
    } else if (isWorkbook(item) && style !== 'sheet-names') files[item] = restylePackage(data, style, random);
  }
  return zipSync(files);
}

/**
 * Every XML part of `bytes` (relationships, content types and the parts of embedded workbooks included) that the
 * strict namespace-aware reader of xml-tree.ts refuses, with its reason; empty when all are namespace-well-formed.
 */
export function namespaceErrors(bytes: Uint8Array, where = ''): string[] {
  const problems: string[] = [];
  for (const [item, data] of Object.entries(unzipSync(bytes))) {
    if (isWorkbook(item)) problems.push(...namespaceErrors(data, `${where}${item}!`));
    if (!isXml(item) || data[0] === 0xff || data[0] === 0xfe) continue;
    const text = strFromU8(data);
    // Some add-ins store opaque non-XML blobs under .xml names (customXml items); they are copied as they are.
    if (!/^\uFEFF?\s*</.test(text)) continue;
    try {
      readXmlTree(text);
    } catch (error) {
      problems.push(`${where}${item}: ${(error as Error).message}`);
    }
  }
  return problems;
}

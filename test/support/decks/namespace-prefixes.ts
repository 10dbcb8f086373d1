/**
 * Namespace prefixes, for tests: rename every prefix of a package's XML parts to others a producer
 * could have chosen, and read parts by namespace (`{uri}local`) so that two decks can be compared whatever
 * prefixes they use. Works on the text with its own small tokenizer, never with src/engine: a fixture the
 * engine made would prove nothing about the engine.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

export const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** mc attributes holding prefix lists (Requires sits unprefixed on mc:Choice). */
export const PREFIX_LISTS = new Set(['Ignorable', 'ProcessContent', 'MustUnderstand', 'Requires']);

export const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
export const ATTRIBUTE = /([^\s=]+)\s*=\s*("[^"]*"|'[^']*')/g;

interface Tag {
  name: string;
  attrs: [string, string][];
  selfClosing: boolean;
}

/**
 * Rewrites every tag of `xml`: `name(uri, local, isAttribute)` gives the new qualified name of a name in
 * namespace `uri` ('' for none), `declarations(uris)` the new declarations for the namespaces a start tag
 * declared, and `list(uri[])` the new text of an mc prefix list. Text and other markup are kept as written.
 */
function rewrite(
  xml: string,
  name: (uri: string, local: string, written: string, isAttribute: boolean) => string,
  declarations: (declared: string[]) => [string, string][],
  list: (uris: (string | undefined)[], written: string[]) => string,
): string {
  const scopes: Map<string, string>[] = [new Map([['xml', XML_NS]])];
  return xml.replace(
    TOKEN,
    (token, close: string | undefined, open: string | undefined, attrText = '', slash = '') => {
      if (close) {
        const scope = scopes.pop()!;
        return `</${resolve(scope, close, false, name)}>`;
      }
      if (!open) return token;
      const tag: Tag = { name: open, attrs: [], selfClosing: slash === '/' };
      for (const m of (attrText as string).matchAll(ATTRIBUTE)) tag.attrs.push([m[1]!, m[2]!.slice(1, -1)]);
      const scope = new Map(scopes[scopes.length - 1]);
      const declared: string[] = [];
      for (const [n, v] of tag.attrs) {
        if (n === 'xmlns' || n.startsWith('xmlns:')) {
          scope.set(n === 'xmlns' ? '' : n.slice(6), v);
          declared.push(v);
        }
      }
      const elementUri = scope.get(prefix(tag.name)) ?? '';
      const out: [string, string][] = declarations(declared);
      for (const [n, v] of tag.attrs) {
        if (n === 'xmlns' || n.startsWith('xmlns:')) continue;
        const renamed = resolve(scope, n, true, name);
        const isList =
          PREFIX_LISTS.has(local(n)) && (n.includes(':') ? scope.get(prefix(n)) === MC : elementUri === MC);
        const written = v.split(/\s+/).filter(Boolean);
        out.push([
          renamed,
          isList
            ? list(
                written.map((p) => scope.get(p)),
                written,
              )
            : v,
        ]);
      }
      if (!tag.selfClosing) scopes.push(scope);
      const attrs = out.map(([n, v]) => ` ${n}="${v}"`).join('');
      return `<${resolve(scope, tag.name, false, name)}${attrs}${tag.selfClosing ? '/' : ''}>`;
    },
  );
}

function prefix(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? '' : qname.slice(0, colon);
}

function local(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

function resolve(
  scope: Map<string, string>,
  qname: string,
  isAttribute: boolean,
  name: (uri: string, local: string, written: string, isAttribute: boolean) => string,
): string {
  const p = prefix(qname);
  if (isAttribute && p === '') return qname;
  if (p === 'xml') return qname;
  return name(scope.get(p) ?? '', local(qname), qname, isAttribute);
}

/** A small seeded generator (mulberry32), so that a failing case can be run again. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Prefixes to hand out: the canonical ones of other namespaces first (so that "a" may now mean PresentationML
 * and "p" DrawingML), then random names.
 */
const DECOYS = ['a', 'p', 'c', 'r', 'mc', 'p14', 'a14', 'cx', 'x', 'v', 'o'];

/**
 * `xml` with every namespace under a new prefix, chosen by `random`: distinct per part, one per namespace, the
 * default namespace moved to a prefix too. Declarations stay where they were; mc prefix lists follow.
 */
export function renamePrefixes(xml: string, random: () => number): string {
  const chosen = new Map<string, string>();
  const pool = [...DECOYS].sort(() => random() - 0.5);
  const taken = new Set<string>();
  const prefixFor = (uri: string): string => {
    let p = chosen.get(uri);
    if (p === undefined) {
      p = pool.find((d) => !taken.has(d));
      while (p === undefined || taken.has(p)) p = `n${Math.floor(random() * 36 ** 3).toString(36)}`;
      taken.add(p);
      chosen.set(uri, p);
    }
    return p;
  };
  return rewrite(
    xml,
    (uri, localName, written) => (uri ? `${prefixFor(uri)}:${localName}` : written),
    (declared) =>
      [...new Set(declared)].map((uri) => (uri ? [`xmlns:${prefixFor(uri)}`, uri] : ['xmlns', ''])),
    (uris, written) => uris.map((uri, i) => (uri ? prefixFor(uri) : written[i])).join(' '),
  );
}

/**
 * `xml` with every name as `{uri}local`, declarations left out and mc prefix lists as URIs; an empty element is
 * written `<x/>` however it was, and line ends as LF (a part copied as it was and one written from its tree
 * differ only so).
 */
export function clarkForm(xml: string): string {
  const named = rewrite(
    xml,
    (uri, localName) => (uri ? `{${uri}}${localName}` : localName),
    () => [],
    (uris, written) => uris.map((uri, i) => uri ?? written[i]).join(' '),
  );
  return named.replace(/\r\n/g, '\n').replace(/<((?:\{[^}]*\})?[^\s/>!?{]+)([^<>]*?)><\/\1>/g, '<$1$2/>');
}

export const isXml = (item: string): boolean =>
  /\.(xml|rels|vml)$/i.test(item) || item === '[Content_Types].xml';
export const isWorkbook = (item: string): boolean => /\.xls[xm]$/i.test(item);

/** Every XML part of `bytes` (and of the workbooks it embeds) renamed with `renamePrefixes`. */
export function renamePackagePrefixes(bytes: Uint8Array, random: () => number): Uint8Array<ArrayBuffer> {
  const files = unzipSync(bytes);
  for (const [item, data] of Object.entries(files)) {
    if (isXml(item)) files[item] = strToU8(renamePrefixes(strFromU8(data), random));
    else if (isWorkbook(item)) files[item] = renamePackagePrefixes(data, random);
  }
  return zipSync(files);
}

/**
 * A package's parts by item name, the XML ones (and those of embedded workbooks, as `item!inner`) in Clark
 * form, the others as their length and a checksum.
 */
export function packageClarkForm(
  bytes: Uint8Array,
  mask: (item: string, text: string) => string = (_i, t) => t,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [item, data] of Object.entries(unzipSync(bytes))) {
    if (isXml(item)) out[item] = mask(item, clarkForm(strFromU8(data)));
    else if (isWorkbook(item))
      for (const [inner, text] of Object.entries(packageClarkForm(data, mask)))
        out[`${item}!${inner}`] = text;
    else out[item] = `${data.length} bytes, sum ${data.reduce((s, b) => (s * 31 + b) >>> 0, 0)}`;
  }
  return out;
}

/**
 * Writes the tree back. Text is escaped minimally (&, <, >) and characters XML 1.0 forbids are dropped
 * (a vertical tab in a:t made PowerPoint repair: docs/powerpoint-rules.md "Characters in text"). Attribute values
 * also escape quotes and whitespace control characters, so they survive attribute-value normalisation.
 */
import { CANONICAL_URIS, XML_NS } from './namespaces.js';
import type { XmlDocument, XmlElement, XmlNode } from './node.js';

const ILLEGAL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * Any character escaping might touch (surrogates included, paired or not). Nearly every value has none, and
 * one test is then all the work: the serialiser calls these for every attribute of every element it writes.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TEXT_MAYBE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ATTR_MAYBE = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;

export function stripIllegalXmlChars(value: string): string {
  return value.replace(ILLEGAL, '');
}

export function escapeText(value: string): string {
  if (!TEXT_MAYBE.test(value)) return value;
  return stripIllegalXmlChars(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(value: string): string {
  if (!ATTR_MAYBE.test(value)) return value;
  return stripIllegalXmlChars(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** The XML declaration PowerPoint writes at the top of every part, line break included. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

/**
 * A whole part. Its output is namespace-well-formed whatever the template declared and wherever the engine put
 * an element (Namespaces in XML 1.0 §5): every prefix written is declared in scope. A template may declare a
 * prefix only on the elements that use it (`<p:sldId r:id="rId2" xmlns:r="…"/>`); an element the engine adds or
 * moves there then declares it itself, with the URI the part binds it to elsewhere, else the canonical one
 * (namespaces.ts). Declarations the template made stay where they were.
 */
export function serializeXml(doc: XmlDocument): string {
  const out: string[] = [doc.prolog];
  writeScoped(doc.root, out, ROOT_SCOPE, new PrefixSource(doc.root));
  return out.join('');
}

/** Where the URI of a prefix that is not in scope comes from: the part's own declarations, else the canonical one. */
class PrefixSource {
  private declared: Map<string, string> | undefined;
  constructor(private readonly root: XmlElement) {}

  uri(prefix: string): string | undefined {
    this.declared ??= declarationsOf(this.root);
    return this.declared.get(prefix) ?? CANONICAL_URIS.get(prefix);
  }
}

/** Every prefix the part declares anywhere, with the first URI it is bound to (document order). */
function declarationsOf(root: XmlElement): Map<string, string> {
  const found = new Map<string, string>();
  const stack: XmlNode[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.kind !== 'element') continue;
    for (const name in el.attrs)
      if (name.startsWith('xmlns:') && !found.has(name.slice(6))) found.set(name.slice(6), el.attrs[name]!);
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!);
  }
  return found;
}

/** Prefixes in scope (prefix → URI); the default namespace is not tracked: the engine names it by no prefix. */
type Scope = ReadonlyMap<string, string>;
const ROOT_SCOPE: Scope = new Map([['xml', XML_NS]]);

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
}

function writeScoped(el: XmlElement, out: string[], outer: Scope, source: PrefixSource): void {
  let tag = '<' + el.name;
  let scope = outer;
  // Prefixed attribute names not in scope when read: their declaration may come later in the same tag.
  let unseen: string[] | null = null;
  for (const name in el.attrs) {
    const value = el.attrs[name] as string;
    tag += ' ' + name + '="' + escapeAttribute(value) + '"';
    const colon = name.indexOf(':');
    if (colon <= 0) continue;
    if (colon === 5 && name.startsWith('xmlns')) {
      if (scope === outer) scope = new Map(outer);
      (scope as Map<string, string>).set(name.slice(6), value);
    } else if (!scope.has(colon === 1 ? name[0]! : name.slice(0, colon))) (unseen ??= []).push(name);
  }
  // One-letter prefixes (p:, a:, r:, c:) are most names: `name[0]` is a cached one-character string, no slice.
  const own = el.name.charCodeAt(1) === 58 /* : */ ? el.name[0]! : prefixOf(el.name);
  let declared: Map<string, string> | null = null;
  if (own !== '' && !scope.has(own)) declared = declare(own, scope, declared, source);
  if (unseen !== null)
    for (let i = 0; i < unseen.length; i++) {
      const prefix = prefixOf(unseen[i]!);
      if (!scope.has(prefix) && !declared?.has(prefix)) declared = declare(prefix, scope, declared, source);
    }
  if (declared !== null) {
    if (scope === outer) scope = new Map(outer);
    for (const [prefix, uri] of declared) {
      (scope as Map<string, string>).set(prefix, uri);
      tag += ' xmlns:' + prefix + '="' + escapeAttribute(uri) + '"';
    }
  }
  const children = el.children;
  if (children.length === 0) {
    out.push(tag + '/>');
    return;
  }
  out.push(tag + '>');
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind === 'element') writeScoped(node, out, scope, source);
    else if (node.kind === 'text') out.push(escapeText(node.text));
    else out.push(node.markup);
  }
  out.push('</' + el.name + '>');
}

/** `declared` with `prefix` bound as the part binds it; unchanged for a prefix nothing binds (written as it was). */
function declare(
  prefix: string,
  scope: Scope,
  declared: Map<string, string> | null,
  source: PrefixSource,
): Map<string, string> | null {
  const uri = source.uri(prefix);
  if (uri === undefined || scope.has(prefix)) return declared;
  return (declared ?? new Map()).set(prefix, uri);
}

/** A fragment, for tests and messages: written as it is, its prefixes declared by whatever part holds it. */
export function serializeElement(el: XmlElement): string {
  const out: string[] = [];
  write(el, out);
  return out.join('');
}

/**
 * Pieces pushed to one array and joined once. Building the string by `+=` instead is faster once V8 has
 * optimised it, but allocates a rope node per piece: a fresh `deckforge generate` process spent more in
 * garbage collection than it saved (~40 ms more for 1 000 slides).
 */
function write(el: XmlElement, out: string[]): void {
  let tag = '<' + el.name;
  for (const name in el.attrs) tag += ' ' + name + '="' + escapeAttribute(el.attrs[name] as string) + '"';
  const children = el.children;
  if (children.length === 0) {
    out.push(tag + '/>');
    return;
  }
  out.push(tag + '>');
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind === 'element') write(node, out);
    else if (node.kind === 'text') out.push(escapeText(node.text));
    else out.push(node.markup);
  }
  out.push('</' + el.name + '>');
}

/**
 * A deliberately small, namespace-aware XML reader for the test-side package checker.
 *
 * It exists so the invariant checker stays an independent judge: it must not share a parser (or its
 * bugs) with src/engine/xml. It keeps elements and attributes only (text is not needed by any check),
 * resolves namespace prefixes, and throws on markup that is not well-formed enough to be trusted.
 */

export interface TreeAttribute {
  name: string; // qualified name as written ('r:id')
  value: string; // entity-decoded
  ns: string | undefined; // namespace URI of the prefix; undefined for unprefixed attributes
  local: string;
}

export interface TreeElement {
  name: string;
  local: string;
  ns: string | undefined;
  attrs: TreeAttribute[];
  children: TreeElement[];
  parent: TreeElement | undefined;
  /** Prefix -> namespace URI visible at this element (includes its own declarations). */
  scope: ReadonlyMap<string, string>;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const ATTR_RE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export class XmlReadError extends Error {}

export function decodeXmlBytes(bytes: Uint8Array): string {
  // UTF-16 parts exist in the wild (rare); honour a BOM, else UTF-8.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

export function decodeEntities(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_m, ent: string) => {
    if (ent.startsWith('#x')) return String.fromCodePoint(parseInt(ent.slice(2), 16));
    if (ent.startsWith('#')) return String.fromCodePoint(parseInt(ent.slice(1), 10));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[ent] ?? '';
  });
}

function splitName(name: string): [prefix: string, local: string] {
  const i = name.indexOf(':');
  return i < 0 ? ['', name] : [name.slice(0, i), name.slice(i + 1)];
}

/** Index just past the end of a tag body that starts at `from`, skipping '>' inside quoted values. */
function tagEnd(src: string, from: number): number {
  let quote = '';
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  throw new XmlReadError('unterminated tag');
}

const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/**
 * The reserved prefixes and names of Namespaces in XML 1.0 §3: `xml` is bound to its namespace only and no other
 * prefix to that namespace; `xmlns` is never declared and its namespace never bound; a prefix is never undeclared.
 */
function checkDeclaration(attribute: string, uri: string): void {
  const prefix = attribute === 'xmlns' ? '' : attribute.slice(6);
  if (prefix === 'xmlns') throw new XmlReadError('the xmlns prefix is declared');
  if (prefix === 'xml' ? uri !== XML_NS : uri === XML_NS)
    throw new XmlReadError(`${attribute}="${uri}": only the xml prefix may name the XML namespace`);
  if (uri === XMLNS_NS) throw new XmlReadError(`${attribute} binds the xmlns namespace`);
  if (prefix !== '' && uri === '') throw new XmlReadError(`${attribute}="" undeclares a prefix`);
}

function openElement(body: string, parent: TreeElement | undefined): TreeElement {
  const nameMatch = /^[^\s/>]+/.exec(body);
  if (!nameMatch) throw new XmlReadError(`bad tag <${body.slice(0, 40)}>`);
  const name = nameMatch[0];
  const rawAttrs: [string, string][] = [];
  for (const m of body.slice(name.length).matchAll(ATTR_RE)) {
    rawAttrs.push([m[1] ?? '', decodeEntities(m[2] ?? m[3] ?? '')]);
  }
  let scope: Map<string, string> | ReadonlyMap<string, string> = parent?.scope ?? new Map([['xml', XML_NS]]);
  const declarations = rawAttrs.filter(([n]) => n === 'xmlns' || n.startsWith('xmlns:'));
  if (declarations.length > 0) {
    const own = new Map(scope);
    for (const [n, v] of declarations) {
      checkDeclaration(n, v);
      own.set(n === 'xmlns' ? '' : n.slice(6), v);
    }
    scope = own;
  }
  const [prefix, local] = splitName(name);
  const ns = scope.get(prefix);
  if (prefix && ns === undefined)
    throw new XmlReadError(`undeclared element prefix '${prefix}' on <${name}>`);
  const attrs: TreeAttribute[] = [];
  const seen = new Set<string>();
  const expanded = new Set<string>();
  for (const [n, v] of rawAttrs) {
    if (seen.has(n)) throw new XmlReadError(`duplicate attribute ${n} on <${name}>`);
    seen.add(n);
    if (n === 'xmlns' || n.startsWith('xmlns:')) continue;
    const [ap, al] = splitName(n);
    const ans = ap ? scope.get(ap) : undefined;
    if (ap && ans === undefined) throw new XmlReadError(`undeclared attribute prefix '${ap}' on <${name}>`);
    // Namespaces in XML 1.0 §6.3: no two attributes with the same namespace and local name.
    if (ans !== undefined && expanded.has(`{${ans}}${al}`))
      throw new XmlReadError(`attribute {${ans}}${al} twice on <${name}>`);
    if (ans !== undefined) expanded.add(`{${ans}}${al}`);
    attrs.push({ name: n, value: v, ns: ans, local: al });
  }
  return { name, local, ns, attrs, children: [], parent, scope };
}

/** Parses a document and returns its root element. Throws XmlReadError when malformed. */
export function readXmlTree(source: string): TreeElement {
  const stack: TreeElement[] = [];
  let root: TreeElement | undefined;
  let i = source.indexOf('<');
  while (i >= 0 && i < source.length) {
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i + 4);
      if (end < 0) throw new XmlReadError('unterminated comment');
      i = end + 3;
    } else if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i + 9);
      if (end < 0) throw new XmlReadError('unterminated CDATA');
      i = end + 3;
    } else if (source.startsWith('<?', i)) {
      const end = source.indexOf('?>', i + 2);
      if (end < 0) throw new XmlReadError('unterminated processing instruction');
      i = end + 2;
    } else if (source.startsWith('<!', i)) {
      // DOCTYPE (possibly with an internal subset). Kept only to be skipped; the checker reports it.
      const bracket = source.indexOf('[', i);
      const close = source.indexOf('>', i);
      const end = bracket >= 0 && bracket < close ? source.indexOf(']>', bracket) + 1 : close;
      if (end <= 0) throw new XmlReadError('unterminated DOCTYPE');
      i = end + 1;
    } else if (source[i + 1] === '/') {
      const end = source.indexOf('>', i);
      const name = source.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open || open.name !== name) throw new XmlReadError(`mismatched </${name}>`);
      i = end + 1;
    } else {
      const end = tagEnd(source, i + 1);
      const selfClosing = source[end - 1] === '/';
      const body = source.slice(i + 1, selfClosing ? end - 1 : end);
      const parent = stack[stack.length - 1];
      const el = openElement(body, parent);
      if (parent) parent.children.push(el);
      else if (root) throw new XmlReadError('more than one root element');
      else root = el;
      if (!selfClosing) stack.push(el);
      i = end + 1;
    }
    i = source.indexOf('<', i);
  }
  if (stack.length > 0) throw new XmlReadError(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (!root) throw new XmlReadError('no root element');
  return root;
}

/** Every element of the tree in document order, `el` first. Iterative: a template may nest thousands deep. */
export function* walk(el: TreeElement): Generator<TreeElement> {
  const stack = [el];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    yield next;
    for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i] as TreeElement);
  }
}

export function attr(el: TreeElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

export function hasDoctype(source: string): boolean {
  return /<!DOCTYPE/i.test(source);
}

/**
 * Canonical prefixes. The engine names elements and attributes by qualified name (`p:sp`, `a:t`, `r:id`, a bare
 * `sheet` in SpreadsheetML), but a producer may bind any prefix to a namespace (Aspose writes
 * `<xns:sheet>`; docs/powerpoint-rules.md "Namespaces and mc:Ignorable"). So each parsed part is brought to the
 * prefixes below once, at parse time: every name then means its namespace, and the queries stay plain string
 * compares. A part that already uses them (every PowerPoint and Excel part) is recognised while it is parsed and
 * costs nothing more.
 */
import type { XmlElement, XmlNode } from './node.js';

/** Namespace URI → the prefix the engine names it by ('' for the default namespace, as Excel and OPC write). */
const CANONICAL: ReadonlyMap<string, string> = new Map([
  ['http://schemas.openxmlformats.org/presentationml/2006/main', 'p'],
  ['http://schemas.openxmlformats.org/drawingml/2006/main', 'a'],
  ['http://schemas.openxmlformats.org/drawingml/2006/chart', 'c'],
  ['http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'r'],
  ['http://schemas.openxmlformats.org/markup-compatibility/2006', 'mc'],
  ['http://schemas.microsoft.com/office/drawing/2014/chartex', 'cx'],
  ['http://schemas.microsoft.com/office/drawing/2012/chart', 'c15'],
  ['http://schemas.microsoft.com/office/drawing/2014/chart', 'c16'],
  ['http://schemas.microsoft.com/office/drawing/2014/main', 'a16'],
  ['http://schemas.microsoft.com/office/drawing/2010/main', 'a14'],
  ['http://schemas.microsoft.com/office/powerpoint/2010/main', 'p14'],
  ['http://schemas.microsoft.com/office/powerpoint/2012/main', 'p15'],
  ['http://schemas.microsoft.com/office/drawing/2016/SVG/main', 'asvg'],
  ['http://schemas.microsoft.com/office/drawing/2012/chartStyle', 'cs'],
  ['http://schemas.openxmlformats.org/drawingml/2006/diagram', 'dgm'],
  ['http://schemas.microsoft.com/office/drawing/2008/diagram', 'dsp'],
  ['http://schemas.openxmlformats.org/spreadsheetml/2006/main', ''],
  // Excel 2007's pre-standard SpreadsheetML, still in old embedded workbooks (Open-XML-SDK's Chart_2D).
  ['http://schemas.openxmlformats.org/spreadsheetml/2006/7/main', ''],
  ['http://schemas.openxmlformats.org/package/2006/relationships', ''],
  ['http://schemas.openxmlformats.org/package/2006/content-types', ''],
  ['http://schemas.openxmlformats.org/officeDocument/2006/extended-properties', ''],
  ['http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes', 'vt'],
]);

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/** mc attributes whose values list prefixes (ECMA-376 Part 3 §7.2–7.3, §10.2.1). */
const PREFIX_LISTS = new Set(['Ignorable', 'ProcessContent', 'MustUnderstand', 'Requires']);

/**
 * Whether a namespace declaration (`xmlns` or `xmlns:x`, value `uri`) is already canonical: a known namespace
 * under its own prefix, or any other namespace (its prefix is kept unless a known namespace of the same part
 * needs it). Called by the parser for each declaration it reads; a part where all are canonical is left as written.
 */
export function isCanonicalDeclaration(attribute: string, uri: string): boolean {
  const canonical = CANONICAL.get(uri);
  return canonical === undefined || canonical === (attribute.length === 5 ? '' : attribute.slice(6));
}

/**
 * What is wrong with a namespace declaration, or null: Namespaces in XML 1.0 §3 binds `xml` to its namespace
 * only and no other prefix to that namespace, never declares `xmlns` nor binds its namespace, and (in XML 1.0)
 * never undeclares a prefix (`xmlns:p=""`). A part breaking one of these is not namespace-well-formed.
 */
export function declarationProblem(attribute: string, uri: string): string | null {
  const prefix = attribute.length === 5 ? '' : attribute.slice(6);
  if (prefix === 'xmlns' || uri === XMLNS_NS)
    return `${attribute} declares the reserved xmlns prefix or namespace`;
  if (prefix === 'xml' ? uri !== XML_NS : uri === XML_NS)
    return `${attribute}="${uri}": only the xml prefix names the XML namespace`;
  if (prefix !== '' && uri === '') return `${attribute}="" undeclares a prefix`;
  return null;
}

/** Canonical prefix → namespace URI, for declaring a prefix the engine writes where none is in scope. */
export const CANONICAL_URIS: ReadonlyMap<string, string> = new Map(
  [...CANONICAL].filter(([, prefix]) => prefix !== '').map(([uri, prefix]) => [prefix, uri]),
);

interface Scope {
  /** Prefix as written → namespace URI ('' for no namespace). */
  uris: Map<string, string>;
}

/**
 * Renames the prefixes of `root` and everything below it to the canonical ones, in place: element and
 * attribute names, the `xmlns` declarations (one per namespace and element; duplicates dropped) and the prefix
 * lists of `mc:Ignorable`, `mc:Choice/@Requires` and their kin. Every namespace gets one prefix for the whole
 * part, so no renamed declaration can shadow another. A namespace whose prefix is taken (an unknown one
 * written under a prefix a known namespace of the part needs, say) gets a fresh `ns<n>` prefix; one used by attributes never gets
 * the default namespace, which attributes cannot name. Undeclared prefixes are left as written.
 */
export function canonicalizeNamespaces(root: XmlElement): void {
  const used = new Map<string, { written: string; onAttribute: boolean }>();
  let bareNoNamespace = false;
  walk(root, (el, scope) => {
    for (const name in el.attrs) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        const uri = el.attrs[name] as string;
        // The xml prefix keeps its one binding: no other prefix may be bound to its namespace.
        if (uri && uri !== XML_NS && !used.has(uri))
          used.set(uri, { written: name.slice(6), onAttribute: false });
      } else {
        const uri = name.includes(':') ? scope.uris.get(prefixOf(name)) : undefined;
        const entry = uri === undefined ? undefined : used.get(uri); // xml: is never declared
        if (entry) entry.onAttribute = true;
      }
    }
    if (!el.name.includes(':') && !scope.uris.get('')) bareNoNamespace = true;
  });
  const prefixes = new Map<string, string>();
  const taken = new Set<string>(['xml', 'xmlns']);
  if (bareNoNamespace) taken.add('');
  const assign = (uri: string, wanted: string, onAttribute: boolean): void => {
    let prefix = wanted;
    if (taken.has(prefix) || (prefix === '' && onAttribute)) {
      let n = 1;
      while (taken.has(`ns${n}`)) n++;
      prefix = `ns${n}`;
    }
    taken.add(prefix);
    prefixes.set(uri, prefix);
  };
  // Known namespaces first, so that their prefixes go to them; then the others keep theirs where free.
  for (const [uri, { onAttribute }] of used) {
    const canonical = CANONICAL.get(uri);
    if (canonical !== undefined) assign(uri, canonical, onAttribute);
  }
  for (const [uri, { written, onAttribute }] of used) {
    if (!CANONICAL.has(uri)) assign(uri, written, onAttribute);
  }
  walk(root, (el, scope, parentScope) => {
    const rename = (name: string, forElement: boolean): string => {
      const colon = name.indexOf(':');
      if (colon < 0 && !forElement) return name;
      const written = colon < 0 ? '' : name.slice(0, colon);
      const uri = scope.uris.get(written);
      const prefix = uri ? prefixes.get(uri) : undefined;
      if (prefix === undefined) return name;
      const local = colon < 0 ? name : name.slice(colon + 1);
      return prefix === '' ? local : `${prefix}:${local}`;
    };
    const inMc = scope.uris.get(prefixOf(el.name)) === MC;
    el.name = rename(el.name, true);
    const attrs: Record<string, string> = {};
    for (const name in el.attrs) {
      const value = el.attrs[name] as string;
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        if (value === XML_NS) {
          attrs[name] = value; // `xmlns:xml`, written explicitly by some producers: kept where it was
          continue;
        }
        const prefix = value ? prefixes.get(value)! : '';
        const declared = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
        // Kept only where it changes what is in scope (a namespace declared twice collapses to one).
        if (!(declared in attrs) && parentUri(parentScope, prefix, prefixes) !== value)
          attrs[declared] = value;
        continue;
      }
      const renamed = rename(name, false);
      attrs[renamed] =
        PREFIX_LISTS.has(localOf(renamed)) &&
        (name.includes(':') ? scope.uris.get(prefixOf(name)) === MC : inMc)
          ? value
              .split(/\s+/)
              .map((p) => {
                const uri = p ? scope.uris.get(p) : undefined;
                const to = uri ? prefixes.get(uri) : undefined;
                return to ? to : p;
              })
              .join(' ')
          : value;
    }
    el.attrs = attrs;
  });
}

const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** The URI the output binds `prefix` to outside this element: its parent's scope mapped through `prefixes`. */
function parentUri(parent: Scope | null, prefix: string, prefixes: Map<string, string>): string | undefined {
  if (!parent) return undefined;
  for (const [written, uri] of parent.uris)
    if (uri && prefixes.get(uri) === prefix && written !== 'xml') {
      // The parent scope may hold the namespace under several written prefixes; any one maps here.
      return uri;
    }
  return undefined;
}

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
}

function localOf(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** Visits every element with its namespace scope (and its parent's), without recursion. */
function walk(root: XmlElement, visit: (el: XmlElement, scope: Scope, parent: Scope | null) => void): void {
  const base: Scope = { uris: new Map([['xml', XML_NS]]) };
  const stack: { el: XmlElement; parent: Scope }[] = [{ el: root, parent: base }];
  let first = true;
  while (stack.length > 0) {
    const { el, parent } = stack.pop()!;
    let scope = parent;
    for (const name in el.attrs) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
      if (scope === parent) scope = { uris: new Map(parent.uris) };
      scope.uris.set(name.slice(6), el.attrs[name] as string);
    }
    visit(el, scope, first ? null : parent);
    first = false;
    const children: XmlNode[] = el.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const node = children[i]!;
      if (node.kind === 'element') stack.push({ el: node, parent: scope });
    }
  }
}

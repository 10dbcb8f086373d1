/**
 * A strict, small XML 1.0 parser for OOXML parts. It refuses DTDs outright (no DOCTYPE, so no entity
 * declarations, no external entities, no billion-laughs expansion): OOXML parts never carry one
 * (ECMA-376 Part 2 §8.1.4 forbids DTD declarations in package parts).
 */
import { EngineError } from '../errors.js';
import { canonicalizeNamespaces, declarationProblem, isCanonicalDeclaration } from './namespaces.js';
import type { XmlDocument, XmlElement } from './node.js';

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * How deep elements may nest. PowerPoint's own parts stay under 30 (the corpus' deepest slide: 25, nested
 * groups included); a part past this is refused as a limit, like a zip bomb. Every recursive walk of a tree
 * (cloning, serialising, queries) is then safe: a few hundred frames are nothing to any stack.
 */
export const MAX_XML_DEPTH = 256;

export function parseXml(source: string | Uint8Array, partName = 'XML part'): XmlDocument {
  const xml = typeof source === 'string' ? source : decodeXmlBytes(source);
  const parser = new Parser(xml, partName, true);
  const doc = parser.document();
  if (parser.nonCanonical) canonicalizeNamespaces(doc.root);
  return doc;
}

/**
 * Checks a part exactly as parseXml does (and refuses what it refuses) without keeping the tree: returns the
 * root element with its attributes and no children. For parts that go to the output unchanged, where a kept
 * tree would only be garbage to collect (28 unchanged slides, 7 MB of XML: ~225 ms with trees, 80 ms without).
 */
export function checkXml(source: string | Uint8Array, partName = 'XML part'): XmlElement {
  const xml = typeof source === 'string' ? source : decodeXmlBytes(source);
  const parser = new Parser(xml, partName, false);
  const root = parser.document().root;
  if (parser.nonCanonical) canonicalizeNamespaces(root);
  return root;
}

/** Where one attribute's value sits in a part's text, and the names of the elements around its element. */
export interface AttributeSpan {
  /** Names of the enclosing elements, root first (the attribute's own element not included). */
  ancestors: readonly string[];
  /** Character offsets of the raw value (between the quotes) in the decoded text. */
  start: number;
  end: number;
}

/**
 * Checks a part as checkXml does and finds every `attribute` of every `element` in its decoded text: for
 * rewriting one value in a part's text without building its tree (copies of an unchanged slide). Names are
 * canonical ones (namespaces.ts); null when the part writes some namespace under another prefix, so that the
 * text cannot be searched by name (the caller goes through the part's tree instead).
 */
export function locateAttribute(
  text: string,
  partName: string,
  element: string,
  attribute: string,
): AttributeSpan[] | null {
  const watch = { element, attribute, found: [] as AttributeSpan[] };
  const parser = new Parser(text, partName, false, watch);
  parser.document();
  return parser.nonCanonical ? null : watch.found;
}

/** UTF-8 unless a BOM says UTF-16 (OPC allows both, ECMA-376 Part 2 §8.1.4). */
function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes);
}

export function decodeEntities(raw: string, fail: (message: string) => never): string {
  if (raw.indexOf('&') < 0) return raw;
  return raw.replace(/&([^;&\s]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) fail(`broken entity reference "${match}"`);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isInteger(code) || code < 0 || code > 0x10ffff) fail(`bad character reference "${match}"`);
      return String.fromCodePoint(code);
    }
    const value = PREDEFINED[ref];
    if (value === undefined) {
      throw new EngineError(
        'UNSAFE_XML',
        `entity "&${ref};" is not allowed (only the five predefined XML entities are)`,
      );
    }
    return value;
  });
}

class Parser {
  private pos = 0;
  constructor(
    private readonly xml: string,
    private readonly partName: string,
    /** Whether elements keep their children (parseXml) or only the root is kept (checkXml). */
    private readonly keep: boolean,
    private readonly watch?: { element: string; attribute: string; found: AttributeSpan[] },
  ) {}

  /** The raw value span of the watched attribute in the start tag just read, if it had one. */
  private watched: { start: number; end: number } | null = null;

  document(): XmlDocument {
    const start = this.xml.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.pos = start;
    // Prolog: XML declaration, comments, PIs, whitespace — kept verbatim. A DOCTYPE is refused.
    for (;;) {
      this.skipWhitespace();
      if (this.xml.startsWith('<?', this.pos)) this.pos = this.endOf('?>');
      else if (this.xml.startsWith('<!--', this.pos)) this.pos = this.endOf('-->');
      else if (this.xml.startsWith('<!', this.pos)) this.refuseDoctype();
      else break;
    }
    const prolog = this.xml.slice(start, this.pos);
    if (this.xml[this.pos] !== '<') this.fail('no root element');
    const root = this.element();
    for (;;) {
      this.skipWhitespace();
      if (this.pos >= this.xml.length) break;
      if (this.xml.startsWith('<!--', this.pos)) this.pos = this.endOf('-->');
      else if (this.xml.startsWith('<?', this.pos)) this.pos = this.endOf('?>');
      else this.fail('content after the root element');
    }
    return { prolog, root };
  }

  /** Parses the element starting at `pos` (which is at '<') iteratively, so deep nesting cannot overflow the stack. */
  private element(): XmlElement {
    const stack: XmlElement[] = [];
    let root: XmlElement | undefined;
    const xml = this.xml;
    for (;;) {
      const current = stack[stack.length - 1];
      if (xml.charCodeAt(this.pos) !== 60 /* < */) {
        if (!current) this.fail('expected an element');
        const next = xml.indexOf('<', this.pos);
        if (next < 0) this.fail(`element <${current.name}> is not closed`);
        const text = decodeEntities(xml.slice(this.pos, next), (m) => this.fail(m));
        if (this.keep) current.children.push({ kind: 'text', text });
        this.pos = next;
        continue;
      }
      const c1 = xml.charCodeAt(this.pos + 1);
      if (c1 === 47 /* / */) {
        const end = xml.indexOf('>', this.pos);
        const name = xml.slice(this.pos + 2, end).trim();
        if (!current || name !== current.name) this.fail(`unexpected closing tag </${name}>`);
        this.pos = end + 1;
        stack.pop();
        if (stack.length === 0) return root as XmlElement;
        continue;
      }
      if (c1 === 33 /* ! */) {
        if (!current) this.fail('expected an element');
        if (xml.startsWith('<!--', this.pos)) {
          const end = this.endOf('-->');
          if (this.keep) current.children.push({ kind: 'verbatim', markup: xml.slice(this.pos, end) });
          this.pos = end;
        } else if (xml.startsWith('<![CDATA[', this.pos)) {
          const end = this.endOf(']]>');
          if (this.keep) current.children.push({ kind: 'verbatim', markup: xml.slice(this.pos, end) });
          this.pos = end;
        } else this.refuseDoctype();
        continue;
      }
      if (c1 === 63 /* ? */) {
        if (!current) this.fail('expected an element');
        const end = this.endOf('?>');
        if (this.keep) current.children.push({ kind: 'verbatim', markup: xml.slice(this.pos, end) });
        this.pos = end;
        continue;
      }
      const el = this.startTag();
      if (this.watched) {
        this.watch?.found.push({ ancestors: stack.map((open) => open.name), ...this.watched });
        this.watched = null;
      }
      if (!current) root = el;
      else if (this.keep) current.children.push(el);
      if (this.selfClosed) {
        if (!current) return el;
      } else if (stack.push(el) > MAX_XML_DEPTH) {
        throw new EngineError(
          'LIMIT_EXCEEDED',
          `elements nest deeper than ${MAX_XML_DEPTH} levels (at offset ${this.pos}); PowerPoint's own parts nest fewer than 30`,
          this.partName,
        );
      }
    }
  }

  private selfClosed = false;
  /** Whether some namespace declaration read so far is not canonical (namespaces.ts). */
  nonCanonical = false;

  private startTag(): XmlElement {
    const xml = this.xml;
    let i = this.pos + 1;
    const nameStart = i;
    while (i < xml.length) {
      const c = xml.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62) break;
      if (c === 60 /* < */) this.fail('"<" inside an element name');
      i++;
    }
    const name = xml.slice(nameStart, i);
    if (!name) this.fail('empty element name');
    if (!isNameStart(name.charCodeAt(0)))
      this.fail(`element name "${name.slice(0, 40)}" does not start as a name`);
    const attrs: Record<string, string> = {};
    for (;;) {
      while (i < xml.length) {
        const c = xml.charCodeAt(i);
        if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
        i++;
      }
      const c = xml.charCodeAt(i);
      if (c === 62 /* > */) {
        this.selfClosed = false;
        this.pos = i + 1;
        break;
      }
      if (c === 47 /* / */ && xml.charCodeAt(i + 1) === 62) {
        this.selfClosed = true;
        this.pos = i + 2;
        break;
      }
      if (i >= xml.length) this.fail(`tag <${name}> is not closed`);
      const eq = xml.indexOf('=', i);
      if (eq < 0) this.fail(`attribute without value in <${name}>`);
      const attrName = xml.slice(i, eq).trim();
      let q = eq + 1;
      while (
        xml.charCodeAt(q) === 32 ||
        xml.charCodeAt(q) === 9 ||
        xml.charCodeAt(q) === 10 ||
        xml.charCodeAt(q) === 13
      )
        q++;
      const quote = xml[q];
      if (quote !== '"' && quote !== "'") this.fail(`attribute ${attrName} of <${name}> is not quoted`);
      const close = xml.indexOf(quote, q + 1);
      if (close < 0) this.fail(`attribute ${attrName} of <${name}> is not closed`);
      const raw = xml.slice(q + 1, close);
      if (raw.indexOf('<') >= 0) this.fail(`"<" in attribute ${attrName} of <${name}>`);
      if (attrName in attrs) this.fail(`attribute ${attrName} repeated in <${name}>`);
      if (name === this.watch?.element && attrName === this.watch.attribute)
        this.watched = { start: q + 1, end: close };
      const value = decodeEntities(raw, (m) => this.fail(m));
      attrs[attrName] = value;
      if (
        attrName.charCodeAt(0) === 120 /* x */ &&
        attrName.startsWith('xmlns') &&
        (attrName.length === 5 || attrName.charCodeAt(5) === 58) /* : */
      ) {
        const problem = declarationProblem(attrName, value);
        if (problem) this.fail(`${problem}, in <${name}>`);
        if (!isCanonicalDeclaration(attrName, value)) this.nonCanonical = true;
      }
      i = close + 1;
    }
    return { kind: 'element', name, attrs, children: [] };
  }

  private skipWhitespace(): void {
    const xml = this.xml;
    while (this.pos < xml.length) {
      const c = xml.charCodeAt(this.pos);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return;
      this.pos++;
    }
  }

  private endOf(terminator: string): number {
    const end = this.xml.indexOf(terminator, this.pos);
    if (end < 0) this.fail(`unterminated markup, expected "${terminator}"`);
    return end + terminator.length;
  }

  private refuseDoctype(): never {
    throw new EngineError(
      'UNSAFE_XML',
      'the part contains a DOCTYPE/DTD declaration; OOXML parts never do, and DTDs are refused for safety',
      this.partName,
    );
  }

  private fail(message: string): never {
    throw new EngineError(
      'INVALID_TEMPLATE',
      `malformed XML: ${message} (at offset ${this.pos})`,
      this.partName,
    );
  }
}

/** Whether `c` may start an XML name (letters, "_", ":" and anything past ASCII; XML 1.0 §2.3, leniently). */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0x80;
}

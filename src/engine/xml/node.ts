/**
 * The document model: a small, faithful tree. Element and attribute names are kept as written (qualified,
 * `p:sp`, `r:id`), attribute order is kept, and everything that is not an element or text (comments,
 * processing instructions, CDATA) is kept verbatim, so that a part we parse and write back differs only
 * where we changed it.
 */
export interface XmlElement {
  kind: 'element';
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export interface XmlText {
  kind: 'text';
  /** Decoded text (entities resolved). */
  text: string;
}

export interface XmlVerbatim {
  kind: 'verbatim';
  markup: string;
}

export type XmlNode = XmlElement | XmlText | XmlVerbatim;

export interface XmlDocument {
  /** Everything before the root element, as written (XML declaration, comments). */
  prolog: string;
  root: XmlElement;
}

export function element(
  name: string,
  attrs: Record<string, string> = {},
  children: XmlNode[] = [],
): XmlElement {
  return { kind: 'element', name, attrs, children };
}

export function text(value: string): XmlText {
  return { kind: 'text', text: value };
}

export function cloneElement(el: XmlElement): XmlElement {
  const children: XmlNode[] = new Array<XmlNode>(el.children.length);
  for (let i = 0; i < el.children.length; i++) {
    const node = el.children[i] as XmlNode;
    children[i] =
      node.kind === 'element'
        ? cloneElement(node)
        : node.kind === 'text'
          ? { kind: 'text', text: node.text }
          : node;
  }
  return { kind: 'element', name: el.name, attrs: { ...el.attrs }, children };
}

export function cloneDocument(doc: XmlDocument): XmlDocument {
  return { prolog: doc.prolog, root: cloneElement(doc.root) };
}

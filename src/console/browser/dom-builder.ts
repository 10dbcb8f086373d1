/**
 * Building the page without markup: every element is made with createElement and every piece of text goes in as
 * a text node, so a shape name such as `<img src=x onerror=alert(1)>` is shown as those characters and never
 * parsed. Nothing in the console assigns innerHTML.
 */

export type Child = Node | string | null | undefined | false;

export type Attributes = Record<
  string,
  string | number | boolean | null | undefined | ((event: Event) => void)
>;

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(node: Element, attributes: Attributes): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(key.replace(/^on/, ''), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
}

function append(node: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** `el('label', {for: 'email'}, 'E-mail')`: attributes as attributes, `on…` functions as listeners. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  apply(node, attributes);
  append(node, children);
  return node;
}

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  apply(node, attributes);
  append(node, children);
  return node;
}

export function replaceChildren(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, children);
}

/** A labelled input: the label names the field for screen readers and a click on it focuses the field. */
export function field(
  label: string,
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  hint?: string,
): HTMLElement {
  const hintNode = hint ? el('small', { id: `${input.id}-hint` }, hint) : null;
  if (hintNode) input.setAttribute('aria-describedby', hintNode.id);
  return el('div', { class: 'field' }, el('label', { for: input.id }, label), input, hintNode);
}

/** A status line that screen readers announce; `kind` picks the colour. */
export function message(text: string, kind: 'info' | 'error' | 'success' | 'warning' = 'info'): HTMLElement {
  return el('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

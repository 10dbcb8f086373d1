/**
 * Checks that apply to the XML of any part: r:* references, text bodies, mc:Ignorable, integer attributes.
 * Sources: docs/powerpoint-rules.md "Relationship ids and targets", "Text bodies", "Namespaces and mc:Ignorable",
 * "Integer attributes" and "How the tests check these rules".
 */
import { is, inNs } from '../readers/namespaces.js';
import type { Relationship } from '../readers/opc-package.js';
import type { TreeElement } from '../readers/xml-tree.js';
import { walk } from '../readers/xml-tree.js';

export type Report = (kind: string, part: string, message: string) => void;

/** (namespace key, element local name) -> attributes that are xsd:long / xsd:int in ECMA-376 Part 1's schemas. */
const INTEGER_ATTRIBUTES: readonly { key: 'a'; local: string; attrs: readonly string[] }[] = [
  { key: 'a', local: 'off', attrs: ['x', 'y'] },
  { key: 'a', local: 'ext', attrs: ['cx', 'cy'] },
  { key: 'a', local: 'chOff', attrs: ['x', 'y'] },
  { key: 'a', local: 'chExt', attrs: ['cx', 'cy'] },
  { key: 'a', local: 'rPr', attrs: ['sz'] },
  { key: 'a', local: 'defRPr', attrs: ['sz'] },
  { key: 'a', local: 'endParaRPr', attrs: ['sz'] },
];

const INTEGER = /^[+-]?\d+$/;

function describe(el: TreeElement): string {
  const path: string[] = [];
  for (let e: TreeElement | undefined = el; e; e = e.parent) path.unshift(e.name);
  return path.join('/');
}

export function checkPartXml(
  part: string,
  root: TreeElement,
  rels: readonly Relationship[],
  report: Report,
): void {
  const relIds = new Set(rels.map((r) => r.id));
  for (const el of walk(root)) {
    for (const a of el.attrs) {
      // Any attribute in the relationships namespace names a relationship of this part (id, embed,
      // link, pict, dm, lo, qs, cs, …); r:id="" is PowerPoint's own "no target" marker.
      if (inNs(a.ns, 'r') && a.value !== '' && !relIds.has(a.value)) {
        report(
          'r-attr-unresolved',
          part,
          `${describe(el)}/@${a.name}="${a.value}" names no relationship of this part`,
        );
      }
      if (inNs(a.ns, 'mc') && a.local === 'Ignorable') {
        for (const prefix of a.value.split(/\s+/).filter(Boolean)) {
          if (!el.scope.has(prefix)) {
            report(
              'ignorable-prefix-undeclared',
              part,
              `mc:Ignorable names prefix '${prefix}' that is not declared on <${el.name}>`,
            );
          }
        }
      }
    }
    if (is(el, 'p', 'txBody') || is(el, 'a', 'txBody') || is(el, 'c', 'rich')) {
      if (!el.children.some((c) => is(c, 'a', 'p')))
        report('txbody-empty', part, `${describe(el)} has no a:p`);
    }
    for (const rule of INTEGER_ATTRIBUTES) {
      if (!is(el, rule.key, rule.local)) continue;
      for (const a of el.attrs) {
        if (a.ns === undefined && rule.attrs.includes(a.local) && !INTEGER.test(a.value)) {
          report('attr-not-integer', part, `${describe(el)}/@${a.name}="${a.value}" is not an integer`);
        }
      }
    }
  }
}

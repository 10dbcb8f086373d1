/**
 * Copies of a template slide that nobody changes. A copy is a new slide and gets its own p14:creationId
 * (docs/powerpoint-rules.md "Ids inside a slide"); nothing else in its XML differs from the template's (its
 * relationships keep their ids; only their targets change, in the rels part). So the slide's text is read once,
 * split around its creation ids, and everything before the first id (nearly all of it: the id sits in the slide's
 * last extension list) is deflated once. Each copy then costs a fresh id and the deflate of the short rest,
 * instead of a tree clone, a serialisation and a deflate of the whole slide. A slide without a creation id is
 * copied as its template part's compressed bytes. A slide whose namespaces are under other prefixes than the
 * engine's is rewritten from its tree (null).
 */
import { deflateHead, type DeflatedHead } from '../package/deflate.js';
import { DEFAULT_DEFLATE_LEVEL } from '../package/zip-writer.js';
import { locateAttribute } from '../xml/index.js';
import type { Template } from './template.js';

export type SlideCopy =
  /** The template part as it is: the slide has no creation id. */
  | { kind: 'identical' }
  /** The deflated head, then `tail(ids)`: fresh creation ids with the text between and after them. */
  | { kind: 'patched'; head: DeflatedHead; tail: () => Uint8Array };

/** Where p14:creationId lives: p:cSld/p:extLst in PowerPoint-saved slides, p:sld/p:extLst in other producers'. */
const CREATION_ID_PLACES = new Set(['p:sld/p:cSld/p:extLst/p:ext', 'p:sld/p:extLst/p:ext']);

const encoder = new TextEncoder();

/** Per generation: the split of each template slide copied, made on its first copy. */
export class SlideCopies {
  private readonly prepared = new Map<Template, Map<string, SlideCopy | null>>();

  /** How to write a copy of `partName`; null when the part must be rewritten from its tree (UTF-16 text). */
  of(template: Template, partName: string): SlideCopy | null {
    let parts = this.prepared.get(template);
    if (!parts) this.prepared.set(template, (parts = new Map()));
    let copy = parts.get(partName);
    if (copy === undefined) {
      copy = prepare(template, partName);
      parts.set(partName, copy);
    }
    return copy;
  }
}

function prepare(template: Template, partName: string): SlideCopy | null {
  const bytes = template.pkg.bytes(partName);
  // Text is written back as UTF-8; a UTF-16 part (BOM) is rewritten through its tree instead.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return null;
  const text = template.pkg.text(partName);
  // A slide that names its namespaces with other prefixes cannot be searched by name: it goes through its tree.
  const found = locateAttribute(text, partName, 'p14:creationId', 'val');
  if (!found) return null;
  const spans = found.filter((span) => CREATION_ID_PLACES.has(span.ancestors.join('/')));
  const first = spans[0];
  if (!first) return { kind: 'identical' };
  const head = deflateHead(encoder.encode(text.slice(0, first.start)), DEFAULT_DEFLATE_LEVEL);
  const between = spans.map((span, i) => text.slice(span.end, spans[i + 1]?.start ?? text.length));
  return {
    kind: 'patched',
    head,
    tail: () => encoder.encode(between.map((rest) => `${freshCreationId()}${rest}`).join('')),
  };
}

/** A random unsignedInt other than 0, as refreshCreationId gives a copy whose tree was made. */
export function freshCreationId(): number {
  return 1 + Math.floor(Math.random() * 0xfffffffe);
}

/**
 * The presentation's embedded fonts (`p:embeddedFontLst`, ECMA-376 Part 1 §19.2.1.9; docs/powerpoint-rules.md
 * "Embedded fonts"): the deck template's own, the families the payload embeds (presentation.fonts), and those of
 * other templates whose slides join the deck (docs/powerpoint-rules.md "Slides from several templates"), one
 * entry per typeface. A family the payload embeds replaces the template's entry of the same typeface.
 */
import { eotFontData } from '../fonts/eot.js';
import type { EmbeddedFamily } from '../fonts/embedded-fonts.js';
import type { PackageBuilder } from '../package/package-builder.js';
import { REL, relativeTarget, type Relationship } from '../package/relationships.js';
import { child, childElements, element, removeNode, type XmlElement } from '../xml/index.js';
import type { TemplateImport } from './template-import.js';
import { append } from '../arrays.js';

/** ECMA-376 Part 1 §15.2.13: a font part of this type holds an Embedded OpenType structure. */
const CT_FONT_DATA = 'application/x-fontdata';

export interface PresentationContext {
  /** The presentation part's name and its root element (a copy, being rewritten). */
  main: string;
  root: XmlElement;
  /** Its relationships as they will be written. */
  rels: Relationship[];
  nextRelId: () => string;
  builder: PackageBuilder;
  /** Puts a new child of `p:presentation` at its place in the schema sequence. */
  place: (element: XmlElement) => void;
}

export function writeEmbeddedFonts(
  context: PresentationContext,
  fonts: readonly EmbeddedFamily[],
  imports: readonly TemplateImport[],
): void {
  const { main, root, rels, nextRelId, builder } = context;
  let list = child(root, 'p:embeddedFontLst');
  const ours = new Set(fonts.map((family) => family.typeface.toLowerCase()));
  const known = new Set<string>();
  for (const font of list ? childElements(list, 'p:embeddedFont') : []) {
    const typeface = child(font, 'p:font')?.attrs.typeface;
    if (typeface && ours.has(typeface.toLowerCase()) && list) {
      // The payload's font replaces the template's: its relationships go, and its parts with them.
      const replaced = new Set(childElements(font).map((face) => face.attrs['r:id']));
      for (let i = rels.length - 1; i >= 0; i--) {
        const rel = rels[i] as Relationship;
        if (rel.type === REL.font && replaced.has(rel.id)) rels.splice(i, 1);
      }
      removeNode(list, font);
    } else if (typeface) known.add(typeface);
  }
  const relationshipTo = (partName: string): string => {
    const id = nextRelId();
    rels.push({ id, type: REL.font, target: relativeTarget(main, partName), external: false });
    return id;
  };
  const entries: XmlElement[] = [];
  for (const family of fonts) {
    known.add(family.typeface);
    const faces = family.faces.map((face) => {
      const partName = builder.freeName((n) => `/ppt/fonts/font${n}.fntdata`);
      builder.setPart(partName, eotFontData(face.bytes, face.face), CT_FONT_DATA);
      return element(`p:${face.slot}`, { 'r:id': relationshipTo(partName) });
    });
    entries.push(
      element('p:embeddedFont', {}, [
        element('p:font', { typeface: family.typeface, ...family.attributes }),
        ...faces,
      ]),
    );
  }
  for (const imported of imports) append(entries, imported.embeddedFonts(known, relationshipTo));
  if (fonts.length > 0) {
    // Keep embedding on a re-save, and embed all characters (no saveSubsetFonts): the next person can still type
    // in the brand's font (ECMA-376 Part 1 §19.2.1.26).
    root.attrs.embedTrueTypeFonts = '1';
    delete root.attrs.saveSubsetFonts;
  }
  if (entries.length === 0) return;
  if (!list) {
    list = element('p:embeddedFontLst');
    context.place(list);
  }
  append(list.children, entries);
}

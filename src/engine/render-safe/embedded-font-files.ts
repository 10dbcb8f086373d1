/**
 * The fonts a deck embeds, as files a renderer may be given (docs/previews.md "Fonts"; docs/security.md "The
 * fonts a deck embeds"): each face `p:embeddedFontLst` lists (ECMA-376 Part 1 §19.2.1.9) taken from its font
 * part (eot.ts, fontOfPart) and checked as strictly as an uploaded font (docs/payload.md "Brand": at most 25 MB,
 * font-file.ts, a licence that allows embedding), at most as many faces as a payload may upload. A face that
 * fails is not handed on: a warning names its part and why, and the renderer draws a substitute for it.
 */
import type { Warning } from '../errors.js';
import { FontPartError, fontOfPart } from '../fonts/eot.js';
import { MAX_FONT_BYTES } from '../fonts/embedded-fonts.js';
import { embeddingRefusal, FontFileError, readFontFile } from '../fonts/font-file.js';
import { partKey } from '../package/part-names.js';
import { REL, resolveTarget, type Relationship } from '../package/relationships.js';
import { MAX_EMBEDDED_FONTS } from '../payload/brand-request.js';
import { child, childElements, type XmlElement } from '../xml/index.js';

export interface RendererFont {
  /** A name of the file in the renderer's font folder (`font-1.ttf`), nothing of the deck's. */
  fileName: string;
  /** The family the font answers to (its name ID 1). */
  family: string;
  bytes: Uint8Array;
}

const FACES = ['p:regular', 'p:bold', 'p:italic', 'p:boldItalic'];

/**
 * The checked font files of the presentation `root` (the part `main`, with the relationships `rels` the copy
 * keeps), and the warnings for faces left out. `partBytes` reads a part of the deck (undefined: there is none).
 * Also returns the keys of the font parts it read, which the copy leaves out.
 */
export function embeddedFontFiles(
  root: XmlElement,
  main: string,
  rels: ReadonlyMap<string, Relationship>,
  partBytes: (partName: string) => Uint8Array | undefined,
): { fonts: RendererFont[]; warnings: Warning[]; parts: Set<string> } {
  const fonts: RendererFont[] = [];
  const warnings: Warning[] = [];
  const parts = new Set<string>();
  const list = child(root, 'p:embeddedFontLst');
  for (const entry of list ? childElements(list, 'p:embeddedFont') : []) {
    const typeface = child(entry, 'p:font')?.attrs.typeface ?? 'unnamed';
    for (const face of childElements(entry).filter((e) => FACES.includes(e.name))) {
      const rel = rels.get(face.attrs['r:id'] ?? '');
      if (!rel || rel.external || rel.type !== REL.font) continue;
      const partName = resolveTarget(main, rel.target);
      const bytes = partBytes(partName);
      if (bytes === undefined || parts.has(partKey(partName))) continue;
      parts.add(partKey(partName));
      const notDrawn = (why: string): void => {
        warnings.push({
          path: partName,
          message: `the embedded font "${typeface}" (${face.name.slice(2)}) is not drawn in the PDF and slide images: the font part ${why}`,
        });
      };
      if (fonts.length >= MAX_EMBEDDED_FONTS) {
        notDrawn(`is one more than the ${MAX_EMBEDDED_FONTS} faces a deck's previews draw`);
        continue;
      }
      const checked = checkedFont(bytes);
      if (typeof checked === 'string') {
        notDrawn(checked);
        continue;
      }
      const extension = checked.outlines === 'cff' ? 'otf' : 'ttf';
      fonts.push({
        fileName: `font-${fonts.length + 1}.${extension}`,
        family: checked.family,
        bytes: checked.font,
      });
    }
  }
  return { fonts, warnings, parts };
}

/** The font file of a font part, checked as an upload is; or why not, in words. */
function checkedFont(
  bytes: Uint8Array,
): { font: Uint8Array; family: string; outlines: 'truetype' | 'cff' } | string {
  try {
    const font = fontOfPart(bytes);
    if (font.byteLength > MAX_FONT_BYTES)
      return `holds a font of ${font.byteLength} bytes, over the ${MAX_FONT_BYTES}-byte limit for one font`;
    const face = readFontFile(font);
    const refusal = embeddingRefusal(face.fsType);
    if (refusal !== null) return `holds a font that ${refusal}`;
    return { font, family: face.family, outlines: face.outlines };
  } catch (problem) {
    if (problem instanceof FontFileError) return `holds a font that ${problem.message}`;
    if (problem instanceof FontPartError) return problem.message;
    throw problem;
  }
}

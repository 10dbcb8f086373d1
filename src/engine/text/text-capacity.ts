/**
 * How much text a text shape holds at the template's own font and size (docs/mcp.md, "describe_template"):
 * worked out with the estimate the overflow warning uses (fit-text.ts), on the paragraphs the box would have once
 * filled (fill-text.ts writes paragraph i with the template's paragraph i's formatting, the last one for any
 * beyond). So a text within the capacity never gets an overflow warning: each of its paragraphs takes
 * ceil(characters ÷ charsPerLine) lines, and `lines` of them fit at 100 % (no shrinking needed either).
 */
import type { FoundShape } from '../shapes/find-shape.js';
import { shapeVariants } from '../shapes/find-shape.js';
import { child, cloneElement, type XmlElement } from '../xml/index.js';
import { fillText, textContentFromString } from './fill-text.js';
import { lineHeightOf, lineRoom, measure, narrowGlyphWidth } from './fit-text.js';

export interface TextCapacity {
  /** Characters that fit in all: `lines` × `charsPerLine` (a wide East Asian character counts two). */
  chars: number;
  /** Lines that fit in the box. */
  lines: number;
  /** Characters a line holds before it wraps. */
  charsPerLine: number;
}

/** Floating-point slack: a capacity rounds down, never up onto the edge the estimate measures against. */
const SLACK = 1e-9;

/** Null when the estimate cannot say (no box, vertical text, WordArt): the warning never fires there either. */
export function textCapacity(
  shape: FoundShape,
  box: { cx: number; cy: number } | null,
  inheritedBodyPr: XmlElement | null,
): TextCapacity | null {
  if (!box) return null;
  let capacity: TextCapacity | null = null;
  for (const variant of shapeVariants(shape)) {
    const txBody = child(variant, 'p:txBody');
    if (variant.name !== 'p:sp' || !txBody) continue;
    const paragraphs = txBody.children.filter((n) => n.kind === 'element' && n.name === 'a:p').length;
    // The box as it would be filled: one probe line per template paragraph, each with that paragraph's formatting.
    const filled = cloneElement(variant);
    const filledBody = child(filled, 'p:txBody')!;
    const probe = textContentFromString(
      Array.from({ length: Math.max(1, paragraphs) }, () => 'x').join('\n'),
    );
    fillText(filledBody, probe, { path: '', addHyperlink: () => '', warnings: [] });
    const measured = measure({ ...shape, element: filled }, filled, box, inheritedBodyPr);
    if (!measured || measured.metrics.length === 0) continue;
    const charsPerLine = Math.min(
      ...measured.metrics.map((m) =>
        Math.floor(lineRoom(measured.width, m.marL) / narrowGlyphWidth(m) - SLACK),
      ),
    );
    const lineHeight = Math.max(...measured.metrics.map(lineHeightOf));
    const lines = Math.max(0, Math.floor(measured.height / lineHeight - SLACK));
    const found = {
      chars: lines * Math.max(0, charsPerLine),
      lines,
      charsPerLine: Math.max(0, charsPerLine),
    };
    if (!capacity || found.chars < capacity.chars) capacity = found;
  }
  return capacity;
}

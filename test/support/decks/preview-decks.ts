/**
 * Decks the renderer tests draw, generated from layouts.pptx (layouts-template.ts) so no corpus deck is
 * needed: a few text slides whose words are easy to find in the PDF, one of them hidden if asked.
 */
import { generate } from '../../../src/engine/index.js';
import { layoutsTemplate } from './layouts-template.js';
import { strFromU8, strToU8 } from 'fflate';
import { editPackage } from './package-edit.js';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

/** The words slide `i` (0-based) carries in its title: unique, so pdftotext finds each on its own page. */
export const slideWord = (i: number): string => `Marker${String.fromCharCode(65 + (i % 26))}${i}`;

/**
 * `count` slides of layout 1 (title and content): a title `slideWord(i)` and `paragraphs` lines of body.
 * `hidden` lists slides (0-based) written with `show="0"`, which PowerPoint and LibreOffice leave out of a PDF.
 */
export function previewDeck(
  count: number,
  options: { hidden?: number[]; paragraphs?: number } = {},
): Uint8Array {
  const lines = Array.from(
    { length: options.paragraphs ?? 3 },
    (_, i) => `Paragraph ${i + 1} of the body, long enough to wrap on a slide of the usual width`,
  ).join('\n');
  const chunks: Uint8Array[] = [];
  generate({
    payload: {
      presentation: {
        template: 'layouts.pptx',
        slides: Array.from({ length: count }, (_, i) => ({
          slide_index: 1,
          shapes: [
            { name: 'Title 1', content: slideWord(i) },
            { name: 'Content Placeholder 2', content: lines },
          ],
        })),
      },
    },
    files: new Map([['layouts.pptx', layoutsTemplate()]]),
    output: { write: (chunk) => void chunks.push(Buffer.from(chunk)) },
  });
  const bytes: Uint8Array = Buffer.concat(chunks);
  const hidden = new Set((options.hidden ?? []).map((i) => `>${slideWord(i)}<`));
  if (hidden.size === 0) return bytes;
  // The engine names slide parts its own way: a hidden slide is found by its title.
  return editPackage(bytes, (files) => {
    for (const [name, data] of Object.entries(files)) {
      if (!/^ppt\/slides\/[^/]+\.xml$/.test(name)) continue;
      const xml = strFromU8(data);
      if ([...hidden].some((word) => xml.includes(word)))
        files[name] = strToU8(xml.replace(/<p:sld\b/, '<p:sld show="0"'));
    }
  });
}

/**
 * How tall a row will be drawn. `a:tr/@h` is a minimum: PowerPoint and LibreOffice grow a row until its text
 * fits (docs/powerpoint-rules.md "Table sizes"), so whether rows fit on a slide depends on the text. This
 * estimate wraps each paragraph word by word at the cell's width (less its left and right margins) with the glyph
 * widths of wide common fonts, gives each line 1.2 × its largest font size (single spacing), and adds the cell's
 * top and bottom margins. It errs on the tall side: a row carried to the next slide is better than one cut off.
 */
import { isWideCodePoint } from '../text/wide-characters.js';

/** Text to measure: paragraphs of runs, each with its font size in 1/100 pt. */
export interface MeasuredRun {
  text: string;
  size: number;
  bold: boolean;
}
export type MeasuredParagraph = readonly MeasuredRun[];

export const EMU_PER_POINT = 12_700;
/** Single line spacing as a multiple of the font size (what PowerPoint's "1.0" lines measure). */
const LINE_HEIGHT = 1.2;
/** DejaVu Sans Bold against DejaVu Sans. */
const BOLD_WIDTH = 1.1;

/** Cell margins' defaults (CT_TableCellProperties: 0.1" left and right, 0.05" top and bottom). */
export const DEFAULT_MARGIN_X = 91_440;
export const DEFAULT_MARGIN_Y = 45_720;

/** The height in EMU the text of a cell needs, margins included. */
export function textHeight(
  paragraphs: readonly MeasuredParagraph[],
  widthEmu: number,
  marginTop: number,
  marginBottom: number,
): number {
  let height = marginTop + marginBottom;
  for (const paragraph of paragraphs) height += paragraphHeight(paragraph, widthEmu);
  return height;
}

/** Lines of one paragraph, each as tall as the largest font on it; an empty paragraph is one line. */
function paragraphHeight(runs: MeasuredParagraph, widthEmu: number): number {
  let lineWidth = 0;
  let lineSize = 0;
  let height = 0;
  const width = Math.max(widthEmu, EMU_PER_POINT);
  for (const run of runs) {
    const scale = (run.size / 100) * EMU_PER_POINT * (run.bold ? BOLD_WIDTH : 1);
    // Words (with the spaces after them) are laid greedily; a word longer than the line breaks anywhere.
    for (const word of run.text.split(/(?<=\s)/)) {
      const wordWidth = glyphsWidth(word) * scale;
      if (lineWidth > 0 && lineWidth + glyphsWidth(word.trimEnd()) * scale > width) {
        height += lineSize * LINE_HEIGHT;
        lineWidth = 0;
        lineSize = 0;
      }
      lineSize = Math.max(lineSize, run.size);
      lineWidth += wordWidth;
      while (lineWidth > width) {
        height += lineSize * LINE_HEIGHT;
        lineWidth -= width;
      }
    }
    lineSize = Math.max(lineSize, run.size);
  }
  return ((height + lineSize * LINE_HEIGHT) / 100) * EMU_PER_POINT;
}

/** Width of a string in ems. */
function glyphsWidth(text: string): number {
  let ems = 0;
  for (let i = 0; i < text.length; i++) ems += glyphWidth(text.charCodeAt(i));
  return ems;
}

/**
 * Advance widths (1/100 em) of printable ASCII, U+0020–U+007E: the wider of DejaVu Sans (what LibreOffice draws
 * with when a deck's font is not installed, e.g. Calibri on a Linux server) and Liberation Sans (metrics of
 * Arial). Calibri itself is narrower, so in PowerPoint a continued table may end a little above the margin.
 */
const ASCII_WIDTHS = [
  32, 41, 46, 84, 64, 96, 78, 28, 40, 40, 50, 84, 32, 37, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34,
  34, 84, 84, 84, 56, 102, 69, 69, 73, 78, 67, 62, 78, 76, 30, 50, 67, 56, 87, 75, 79, 67, 79, 73, 67, 62, 74,
  69, 99, 69, 67, 69, 40, 34, 40, 84, 56, 50, 62, 64, 55, 64, 62, 36, 64, 64, 28, 28, 58, 28, 98, 64, 62, 64,
  64, 42, 53, 40, 64, 60, 82, 60, 60, 53, 64, 34, 64, 84,
];
/** Other scripts' letters (accented Latin, Greek, Cyrillic, …) average about this. */
const OTHER_WIDTH = 0.7;

function glyphWidth(code: number): number {
  if (code >= 0x20 && code <= 0x7e) return ASCII_WIDTHS[code - 0x20]! / 100;
  // A surrogate pair is a character beyond the BMP, mostly CJK: one em for the pair.
  if (code >= 0xd800 && code <= 0xdbff) return 1;
  if (code >= 0xdc00 && code <= 0xdfff) return 0;
  return isWideCodePoint(code) ? 1 : OTHER_WIDTH;
}

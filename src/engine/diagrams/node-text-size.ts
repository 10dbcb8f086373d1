/**
 * The text of a SmartArt node box that was laid out smaller (docs/payload.md, SmartArt; docs/powerpoint-rules.md
 * "Text sizes in a SmartArt drawing"). PowerPoint sizes the text of a layout's nodes together to fit their boxes
 * and writes the result into its drawing as explicit sizes, one per run (a:rPr/@sz, a:endParaRPr/@sz, ECMA-376
 * Part 1 §21.1.2.3.9 CT_TextCharacterProperties), with text insets that follow the font size (a:bodyPr lIns,
 * tIns, rIns, bIns, §21.1.2.1.1); its drawings say a:noAutofit, which stays. Here sizes and insets shrink by the
 * factor the box shrank along the dimension that bounds the text, so the text breaks where it broke in the
 * larger box.
 */
import { child, childElements, descendants, type XmlElement } from '../xml/index.js';

/**
 * PowerPoint's SmartArt drawings carry sizes in half points (1050, 1100, … in 1/100 pt); a shrunk size is rounded
 * down to one, so the text never grows past its box.
 */
const SIZE_STEP = 50;
/** The smallest size shrinking writes (7 pt), unless the template's own size was smaller. */
const FLOOR = 700;
/** ST_TextFontSize: 1 pt to 4000 pt in 1/100 pt. */
const MIN_SIZE = 100;
const MAX_SIZE = 400000;
const INSETS = ['lIns', 'tIns', 'rIns', 'bIns'];

/**
 * Shrinks the text of a drawn shape (dsp:sp) by `factor` (below 1). A run without a size gets the size it
 * showed, shrunk: its list style level's (a:lstStyle/a:lvlNpPr/a:defRPr), else `defaultSize` — the deck's
 * default text size (p:defaultTextStyle), which LibreOffice gives a drawn SmartArt run without one.
 */
export function shrinkText(sp: XmlElement, factor: number, defaultSize: number): void {
  const txBody = child(sp, 'dsp:txBody');
  if (!txBody || !(factor > 0 && factor < 1)) return;
  const lstStyle = child(txBody, 'a:lstStyle');
  const levelSize = (level: number): number => {
    const lvl = lstStyle && child(lstStyle, `a:lvl${level + 1}pPr`);
    const size = Number(lvl && child(lvl, 'a:defRPr')?.attrs['sz']);
    return size > 0 ? size : defaultSize;
  };
  for (const p of childElements(txBody, 'a:p')) {
    const level = Number(child(p, 'a:pPr')?.attrs['lvl'] ?? 0);
    const shown = levelSize(Number.isInteger(level) ? level : 0);
    for (const rPr of [...descendants(p, 'a:rPr'), ...childElements(p, 'a:endParaRPr')]) {
      const size = Number(rPr.attrs['sz']);
      rPr.attrs['sz'] = String(shrunkSize(size > 0 ? size : shown, factor));
    }
  }
  for (const defRPr of lstStyle ? descendants(lstStyle, 'a:defRPr') : []) {
    const size = Number(defRPr.attrs['sz']);
    if (size > 0) defRPr.attrs['sz'] = String(shrunkSize(size, factor));
  }
  const bodyPr = child(txBody, 'a:bodyPr');
  for (const name of INSETS) {
    const inset = Number(bodyPr?.attrs[name]);
    if (bodyPr && bodyPr.attrs[name] !== undefined && Number.isFinite(inset))
      bodyPr.attrs[name] = String(Math.round(inset * factor));
  }
}

/** `size` (1/100 pt) times `factor`, rounded down to half points, not below 7 pt nor `size` itself if smaller. */
export function shrunkSize(size: number, factor: number): number {
  const shrunk = Math.floor((size * factor) / SIZE_STEP) * SIZE_STEP;
  return Math.min(MAX_SIZE, Math.max(shrunk, Math.min(size, FLOOR), MIN_SIZE));
}

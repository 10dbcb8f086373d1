/**
 * Writing run formatting (`a:rPr`, CT_TextCharacterProperties). Its children are an XSD sequence with choice
 * groups: insert in schema order, replace the whole choice group, never duplicate (docs/powerpoint-rules.md
 * "Schema order of property children").
 */
import type { Hyperlink, RunProps } from '../payload/model.js';
import { cloneElement, element, insertInOrder, type XmlElement } from '../xml/index.js';
import { setSolidFill, srgb } from '../shapes/solid-fill.js';

/** CT_TextCharacterProperties child order (ECMA-376 Part 1, DrawingML). */
export const RUN_PROPERTIES_ORDER = [
  'a:ln',
  'a:noFill',
  'a:solidFill',
  'a:gradFill',
  'a:blipFill',
  'a:pattFill',
  'a:grpFill',
  'a:effectLst',
  'a:effectDag',
  'a:highlight',
  'a:uLnTx',
  'a:uLn',
  'a:uFillTx',
  'a:uFill',
  'a:latin',
  'a:ea',
  'a:cs',
  'a:sym',
  'a:hlinkClick',
  'a:hlinkMouseOver',
  'a:rtl',
  'a:extLst',
] as const;

/**
 * Proofing bookkeeping that describes the *old* text (docs/powerpoint-rules.md "Proofing attributes split runs"):
 * a spelling flag or a "needs re-layout" flag is wrong for text we wrote.
 */
const STALE_ATTRIBUTES = ['err', 'dirty'];

/** ST_TextFontSize: 100–400000 (1/100 pt). */
const MIN_SIZE = 100;
const MAX_SIZE = 400000;

export interface RunPropsContext {
  addHyperlink(link: Hyperlink): string;
}

/**
 * A fresh `a:rPr` for a rewritten run: a copy of `base` (the template run's rPr, or its paragraph's
 * endParaRPr) without stale proofing flags, with `props` laid over it.
 */
export function buildRunProperties(
  base: XmlElement | undefined,
  props: RunProps,
  ctx: RunPropsContext,
): XmlElement {
  // endParaRPr and defRPr share CT_TextCharacterProperties with rPr, so a copy under the new name is valid.
  const rPr = base ? cloneElement(base) : element('a:rPr');
  rPr.name = 'a:rPr';
  // `delete` only where there is something to delete: it turns the object into a slow dictionary.
  for (const name of STALE_ATTRIBUTES) if (name in rPr.attrs) delete rPr.attrs[name];
  applyRunProps(rPr, props, ctx);
  return rPr;
}

export function applyRunProps(rPr: XmlElement, props: RunProps, ctx: RunPropsContext): void {
  if (props.size !== undefined) rPr.attrs['sz'] = String(clamp(Math.round(props.size), MIN_SIZE, MAX_SIZE));
  if (props.bold !== undefined) rPr.attrs['b'] = props.bold ? '1' : '0';
  if (props.italic !== undefined) rPr.attrs['i'] = props.italic ? '1' : '0';
  if (props.underline !== undefined) rPr.attrs['u'] = props.underline;
  if (props.strike !== undefined) rPr.attrs['strike'] = props.strike ? 'sngStrike' : 'noStrike';
  if (props.baseline !== undefined) rPr.attrs['baseline'] = String(Math.round(props.baseline));
  if (props.color !== undefined) setSolidFill(rPr, props.color, RUN_PROPERTIES_ORDER);
  if (props.highlight !== undefined) {
    insertInOrder(rPr, element('a:highlight', {}, [srgb(props.highlight)]), RUN_PROPERTIES_ORDER);
  }
  if (props.font !== undefined) {
    // A new typeface replaces panose/charset hints that described the old one. Latin and East Asian slots
    // are set so that the font shows for both scripts; a:cs (complex scripts) keeps the template's choice.
    insertInOrder(rPr, element('a:latin', { typeface: props.font }), RUN_PROPERTIES_ORDER);
    insertInOrder(rPr, element('a:ea', { typeface: props.font }), RUN_PROPERTIES_ORDER);
  }
  if (props.hyperlink !== undefined) {
    // An empty id means the caller could not link here (speaker notes): keep the text, write no link.
    const rId = ctx.addHyperlink(props.hyperlink);
    // A jump to another slide is a relationship to its part with PowerPoint's action (ECMA-376 Part 1,
    // §21.1.2.3.5 hlinkClick; the ppaction names are listed in §19.5.1).
    const attrs: Record<string, string> =
      typeof props.hyperlink === 'string'
        ? { 'r:id': rId }
        : { 'r:id': rId, action: 'ppaction://hlinksldjump' };
    if (rId !== '') insertInOrder(rPr, element('a:hlinkClick', attrs), RUN_PROPERTIES_ORDER);
  }
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * Writing paragraph formatting (`a:pPr`, CT_TextParagraphProperties): alignment, indent, line spacing and
 * bullets. Children are an XSD sequence; bullets before spacing made PowerPoint repair (docs/powerpoint-rules.md
 * "Schema order of property children").
 */
import type { ParagraphProps } from '../payload/model.js';
import { child, childElements, element, insertInOrder, removeNode, type XmlElement } from '../xml/index.js';
import { clamp } from './run-properties.js';

/** CT_TextParagraphProperties child order (ECMA-376 Part 1, DrawingML). */
export const PARAGRAPH_PROPERTIES_ORDER = [
  'a:lnSpc',
  'a:spcBef',
  'a:spcAft',
  'a:buClrTx',
  'a:buClr',
  'a:buSzTx',
  'a:buSzPct',
  'a:buSzPts',
  'a:buFontTx',
  'a:buFont',
  'a:buNone',
  'a:buAutoNum',
  'a:buChar',
  'a:buBlip',
  'a:tabLst',
  'a:defRPr',
  'a:extLst',
] as const;

const BULLET_TYPES = ['a:buNone', 'a:buAutoNum', 'a:buChar', 'a:buBlip'];
const BULLET_SIZES = ['a:buSzTx', 'a:buSzPct', 'a:buSzPts'];
/** PowerPoint's own choice when bullets are switched on in a plain text box. */
const DEFAULT_BULLET = '•';
const DEFAULT_HANGING_INDENT = 285750;
/** ST_TextMargin 0–51206400 EMU; ST_TextSpacingPercent 0–13200000; ST_TextSpacingPoint 0–158400. */
const MAX_MARGIN = 51206400;
const MAX_SPACING_PERCENT = 13200000;
const MAX_SPACING_POINTS = 158400;
/** ST_TextBulletSizePercent: 25 %–400 %. */
const MIN_BULLET_SIZE = 25000;
const MAX_BULLET_SIZE = 400000;

/** Lays `props` over `pPr` (which the caller adds to the paragraph when it ends up non-empty). */
export function applyParagraphProps(pPr: XmlElement, props: ParagraphProps): void {
  if (props.align !== undefined) pPr.attrs['algn'] = props.align;
  // text_indent: a positive value indents the paragraph's text ("before text", ST_TextMargin → marL, as the
  // hosted API's 0–142.24 cm range suggests); a negative one is a hanging first line (ST_TextIndent → indent).
  if (props.indent !== undefined) {
    const emu = clamp(Math.round(props.indent), -MAX_MARGIN, MAX_MARGIN);
    pPr.attrs[emu >= 0 ? 'marL' : 'indent'] = String(emu);
  }
  if (props.level !== undefined) pPr.attrs['lvl'] = String(clamp(Math.round(props.level), 0, 8));
  if (props.lineSpacing !== undefined) {
    const spacing =
      props.lineSpacing.unit === 'percent'
        ? element('a:spcPct', {
            val: String(clamp(Math.round(props.lineSpacing.value), 0, MAX_SPACING_PERCENT)),
          })
        : element('a:spcPts', {
            val: String(clamp(Math.round(props.lineSpacing.value), 0, MAX_SPACING_POINTS)),
          });
    insertInOrder(pPr, element('a:lnSpc', {}, [spacing]), PARAGRAPH_PROPERTIES_ORDER);
  }
  if (props.bullet === false) {
    setBulletType(pPr, element('a:buNone'));
  } else if (props.bulletChar !== undefined) {
    setBulletType(pPr, element('a:buChar', { char: props.bulletChar }));
    ensureHangingIndent(pPr);
  } else if (props.bullet === true && !hasVisibleBullet(pPr)) {
    setBulletType(pPr, element('a:buChar', { char: DEFAULT_BULLET }));
    ensureHangingIndent(pPr);
  }
  if (props.bulletSize !== undefined) {
    for (const el of childElements(pPr)) if (BULLET_SIZES.includes(el.name)) removeNode(pPr, el);
    const val = clamp(Math.round(props.bulletSize), MIN_BULLET_SIZE, MAX_BULLET_SIZE);
    insertInOrder(pPr, element('a:buSzPct', { val: String(val) }), PARAGRAPH_PROPERTIES_ORDER);
  }
}

function hasVisibleBullet(pPr: XmlElement): boolean {
  return (
    child(pPr, 'a:buChar') !== undefined ||
    child(pPr, 'a:buAutoNum') !== undefined ||
    child(pPr, 'a:buBlip') !== undefined
  );
}

function setBulletType(pPr: XmlElement, bullet: XmlElement): void {
  for (const el of childElements(pPr)) if (BULLET_TYPES.includes(el.name)) removeNode(pPr, el);
  insertInOrder(pPr, bullet, PARAGRAPH_PROPERTIES_ORDER);
}

/** Without a hanging indent the bullet sits on top of the text; PowerPoint writes this pair itself. */
function ensureHangingIndent(pPr: XmlElement): void {
  if (pPr.attrs['indent'] !== undefined) return;
  const marL = Number.parseInt(pPr.attrs['marL'] ?? '0', 10) || 0;
  if (marL === 0) pPr.attrs['marL'] = String(DEFAULT_HANGING_INDENT);
  pPr.attrs['indent'] = String(-Math.min(DEFAULT_HANGING_INDENT, marL || DEFAULT_HANGING_INDENT));
}

/**
 * What a screen reader user misses on one output slide (docs/payload.md, Accessibility): pictures, charts,
 * tables and groups without a description (p:cNvPr/@descr, PresentationML §19.3.1.12), a slide without a
 * title, and tables without a header row (a:tblPr/@firstRow, DrawingML §21.1.3.15). Reads the slide as it is
 * written; changes nothing.
 */
import { cNvPr, listShapes, shapeVariants, type FoundShape } from '../shapes/find-shape.js';
import { SHAPE_KINDS } from '../shapes/shape-kinds.js';
import { child, childElements, descendants, firstDescendant, type XmlElement } from '../xml/index.js';

export type AccessibilityCode = 'NO_ALT_TEXT' | 'NO_SLIDE_TITLE' | 'NO_TABLE_HEADER';

export interface SlideFinding {
  code: AccessibilityCode;
  /** The shape it is about (null: the slide itself). */
  shape: { id: number; name: string; label: string } | null;
}

/** Office 2016's "mark as decorative" (a16 extension of p:cNvPr): a reader skips the shape, as it should. */
const DECORATIVE_EXT = '{C183D7F6-B498-43B3-948B-1728B52AA6E4}';

const TITLE_TYPES = new Set(['title', 'ctrTitle']);

export function slideFindings(slideRoot: XmlElement): SlideFinding[] {
  const cSld = child(slideRoot, 'p:cSld');
  const spTree = cSld ? child(cSld, 'p:spTree') : undefined;
  if (!spTree) return [{ code: 'NO_SLIDE_TITLE', shape: null }];
  const findings: SlideFinding[] = [];
  const shapes = listShapes(spTree);
  if (!shapes.some(isTitleWithText)) findings.push({ code: 'NO_SLIDE_TITLE', shape: null });
  for (const shape of shapes) {
    const label = SHAPE_KINDS[shape.kind].describedAs;
    // An empty picture placeholder (a p:sp) shows nothing in the output.
    if (label === null || (shape.kind === 'picture' && !isPictureElement(shape))) continue;
    const named = { id: shape.id, name: shape.name, label };
    if (!isDescribed(shape)) findings.push({ code: 'NO_ALT_TEXT', shape: named });
    if (shape.kind === 'table' && !hasHeaderRow(shape))
      findings.push({ code: 'NO_TABLE_HEADER', shape: named });
  }
  return findings;
}

function isPictureElement(shape: FoundShape): boolean {
  return shapeVariants(shape).some((el) => el.name === 'p:pic');
}

function isDescribed(shape: FoundShape): boolean {
  const props = shapeVariants(shape)
    .map(cNvPr)
    .find((p) => p !== undefined);
  if (!props) return false;
  if ((props.attrs['descr'] ?? '').trim() !== '') return true;
  const extLst = child(props, 'a:extLst');
  return extLst !== undefined && childElements(extLst, 'a:ext').some((ext) => isDecorative(ext));
}

function isDecorative(ext: XmlElement): boolean {
  if (ext.attrs['uri'] !== DECORATIVE_EXT) return false;
  const mark = childElements(ext).find((el) => el.name.endsWith(':decorative'));
  return mark !== undefined && (mark.attrs['val'] === '1' || mark.attrs['val'] === 'true');
}

function isTitleWithText(shape: FoundShape): boolean {
  if (shape.kind !== 'text' || !shape.placeholder || !TITLE_TYPES.has(shape.placeholder.type)) return false;
  return shapeVariants(shape).some((el) => {
    const body = child(el, 'p:txBody');
    if (!body) return false;
    for (const t of descendants(body, 'a:t'))
      if (t.children.some((n) => n.kind === 'text' && n.text.trim() !== '')) return true;
    return false;
  });
}

/** A table's first row is a header when a:tblPr/@firstRow is on (the "Header Row" box in PowerPoint). */
function hasHeaderRow(shape: FoundShape): boolean {
  return shapeVariants(shape).some((el) => {
    const tblPr = firstDescendant(el, 'a:tblPr');
    const flag = tblPr?.attrs['firstRow'];
    return flag === '1' || flag === 'true';
  });
}

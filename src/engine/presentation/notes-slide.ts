/**
 * Notes pages. A generated slide that gets notes but has none in the template gets a notes slide built the
 * way PowerPoint writes one (slide image + body placeholder, geometry inherited from the notes master), and
 * a package that has no notes master gets one (docs/powerpoint-rules.md "Notes slides and the notes master").
 */
import {
  child,
  childElements,
  element,
  firstDescendant,
  XML_DECLARATION,
  type XmlDocument,
  type XmlElement,
} from '../xml/index.js';
import { PML_ROOT_NAMESPACE_ATTRIBUTES, PML_ROOT_NAMESPACES } from './namespaces.js';

function placeholderShape(
  id: number,
  name: string,
  ph: Record<string, string>,
  withText: boolean,
): XmlElement {
  const locks: Record<string, string> =
    ph.type === 'sldImg' ? { noGrp: '1', noRot: '1', noChangeAspect: '1' } : { noGrp: '1' };
  const sp = element('p:sp', {}, [
    element('p:nvSpPr', {}, [
      element('p:cNvPr', { id: String(id), name }),
      element('p:cNvSpPr', {}, [element('a:spLocks', locks)]),
      element('p:nvPr', {}, [element('p:ph', ph)]),
    ]),
    element('p:spPr'),
  ]);
  if (withText) {
    sp.children.push(
      element('p:txBody', {}, [
        element('a:bodyPr'),
        element('a:lstStyle'),
        element('a:p', {}, [element('a:endParaRPr', { lang: 'en-US' })]),
      ]),
    );
  }
  return sp;
}

function groupProperties(): XmlElement[] {
  return [
    element('p:nvGrpSpPr', {}, [
      element('p:cNvPr', { id: '1', name: '' }),
      element('p:cNvGrpSpPr'),
      element('p:nvPr'),
    ]),
    element('p:grpSpPr'),
  ];
}

export function newNotesSlide(): XmlDocument {
  const spTree = element('p:spTree', {}, [
    ...groupProperties(),
    placeholderShape(2, 'Slide Image Placeholder 1', { type: 'sldImg' }, false),
    placeholderShape(3, 'Notes Placeholder 2', { type: 'body', idx: '1' }, true),
  ]);
  const root = element('p:notes', { ...PML_ROOT_NAMESPACES }, [
    element('p:cSld', {}, [spTree]),
    element('p:clrMapOvr', {}, [element('a:masterClrMapping')]),
  ]);
  return { prolog: XML_DECLARATION, root };
}

/** A plain notes master: slide image on top, notes body below, on a portrait notes page of `notesSize`. */
export function newNotesMaster(notesSize: { cx: number; cy: number }): string {
  const { cx, cy } = notesSize;
  const margin = Math.round(cx * 0.1);
  const imageHeight = Math.round(cy * 0.37);
  const xfrm = (x: number, y: number, w: number, h: number): string =>
    `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${w}" cy="${h}"/></a:xfrm>`;
  return (
    XML_DECLARATION +
    `<p:notesMaster ${PML_ROOT_NAMESPACE_ATTRIBUTES}>` +
    '<p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>' +
    '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr>' +
    `<p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr><p:spPr>${xfrm(margin, margin, cx - 2 * margin, imageHeight)}` +
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln w="12700"><a:solidFill><a:prstClr val="black"/></a:solidFill></a:ln></p:spPr></p:sp>' +
    '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>' +
    `<p:nvPr><p:ph type="body" sz="quarter" idx="3"/></p:nvPr></p:nvSpPr><p:spPr>${xfrm(margin, 2 * margin + imageHeight, cx - 2 * margin, cy - 3 * margin - imageHeight)}` +
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"/>' +
    '<a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>' +
    '</p:spTree></p:cSld>' +
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
    '<p:notesStyle><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:defRPr sz="1200" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:notesStyle>' +
    '</p:notesMaster>'
  );
}

/** The notes text body (the `body` placeholder), added when a template's notes slide lacks one. */
export function notesBody(notes: XmlElement): XmlElement {
  const spTree = firstDescendant(notes, 'p:spTree');
  if (!spTree) throw new Error('notes slide without p:spTree');
  for (const sp of childElements(spTree, 'p:sp')) {
    const ph = firstDescendant(sp, 'p:ph');
    if (ph?.attrs.type === 'body') {
      let txBody = child(sp, 'p:txBody');
      if (!txBody) {
        txBody = element('p:txBody', {}, [element('a:bodyPr'), element('a:lstStyle'), element('a:p')]);
        sp.children.push(txBody);
      }
      return txBody;
    }
  }
  const ids = [...spTree.children].flatMap((n) => (n.kind === 'element' ? [...collectIds(n)] : []));
  const sp = placeholderShape(Math.max(1, ...ids) + 1, 'Notes Placeholder', { type: 'body', idx: '1' }, true);
  spTree.children.push(sp);
  return child(sp, 'p:txBody')!;
}

function* collectIds(el: XmlElement): Generator<number> {
  if (el.name === 'p:cNvPr') yield Number(el.attrs.id) || 0;
  for (const c of el.children) if (c.kind === 'element') yield* collectIds(c);
}

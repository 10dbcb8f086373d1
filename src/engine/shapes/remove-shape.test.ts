import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { itCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import {
  child,
  childElements,
  descendants,
  parseXml,
  serializeElement,
  type XmlElement,
} from '../xml/index.js';
import { findShape, listShapes } from './find-shape.js';
import { removeShape } from './remove-shape.js';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';

const sp = (id: number, name: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/>` +
  `<p:txBody><a:bodyPr/><a:p><a:r><a:t>${name}</a:t></a:r></a:p></p:txBody></p:sp>`;

/** One click effect (entrance) on each listed shape id, PowerPoint's shape of the main sequence. */
function clickEffects(ids: number[]): string {
  let ctn = 3;
  const clicks = ids
    .map(
      (id) =>
        `<p:par><p:cTn id="${ctn++}" fill="hold"><p:stCondLst><p:cond delay="indefinite"/></p:stCondLst><p:childTnLst>` +
        `<p:par><p:cTn id="${ctn++}" fill="hold"><p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>` +
        `<p:par><p:cTn id="${ctn++}" presetID="10" presetClass="entr" presetSubtype="0" fill="hold" grpId="0" nodeType="clickEffect">` +
        `<p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst><p:set><p:cBhvr><p:cTn id="${ctn++}" dur="1" fill="hold"/>` +
        `<p:tgtEl><p:spTgt spid="${id}"/></p:tgtEl><p:attrNameLst><p:attrName>style.visibility</p:attrName></p:attrNameLst>` +
        `</p:cBhvr><p:to><p:strVal val="visible"/></p:to></p:set></p:childTnLst></p:cTn></p:par>` +
        `</p:childTnLst></p:cTn></p:par></p:childTnLst></p:cTn></p:par>`,
    )
    .join('');
  return (
    `<p:timing><p:tnLst><p:par><p:cTn id="1" dur="indefinite" restart="never" nodeType="tmRoot"><p:childTnLst>` +
    `<p:seq concurrent="1" nextAc="seek"><p:cTn id="2" dur="indefinite" nodeType="mainSeq"><p:childTnLst>${clicks}</p:childTnLst></p:cTn>` +
    `<p:prevCondLst><p:cond evt="onPrev" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:prevCondLst>` +
    `<p:nextCondLst><p:cond evt="onNext" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:nextCondLst></p:seq>` +
    `</p:childTnLst></p:cTn></p:par></p:tnLst>` +
    `<p:bldLst>${ids.map((id) => `<p:bldP spid="${id}" grpId="0"/>`).join('')}</p:bldLst></p:timing>`
  );
}

function slide(shapes: string, timing = ''): XmlElement {
  return parseXml(
    `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
      `<p:grpSpPr/>${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>${timing}</p:sld>`,
  ).root;
}

const spTreeOf = (root: XmlElement) => child(child(root, 'p:cSld')!, 'p:spTree')!;

function remove(root: XmlElement, name: string): void {
  const { shape } = findShape(spTreeOf(root), { by: 'name', name });
  if (!shape) throw new Error(`no shape ${name}`);
  removeShape(root, shape);
}

/**
 * The invariants PowerPoint checks on open (docs/powerpoint-rules.md "How the tests check these rules"): every
 * timeline/build target exists, no empty lists.
 */
function expectConsistentTiming(root: XmlElement): void {
  const ids = new Set<string>();
  for (const el of descendants(child(root, 'p:cSld')!))
    if (el.name.endsWith('cNvPr')) ids.add(el.attrs['id']!);
  const timing = child(root, 'p:timing');
  if (!timing) return;
  for (const el of descendants(timing)) {
    if (el.attrs['spid'] !== undefined)
      expect(ids, `${el.name} spid=${el.attrs['spid']}`).toContain(el.attrs['spid']);
    if (el.name === 'p:childTnLst' || el.name === 'p:bldLst' || el.name === 'p:tnLst') {
      expect(childElements(el).length, `${el.name} is empty`).toBeGreaterThan(0);
    }
  }
  expect(child(timing, 'p:tnLst')).toBeDefined();
}

describe('removeShape', () => {
  it('removes an animated shape with its effect and build entry, keeping the other shape’s animation', () => {
    const root = slide(sp(2, 'Keep') + sp(3, 'Drop'), clickEffects([2, 3]));
    remove(root, 'Drop');
    expect(listShapes(spTreeOf(root)).map((s) => s.name)).toEqual(['Keep']);
    const timing = child(root, 'p:timing')!;
    const targets = [...descendants(timing, 'p:spTgt')].map((t) => t.attrs['spid']);
    expect(targets).toEqual(['2']);
    expect([...descendants(timing, 'p:bldP')].map((b) => b.attrs['spid'])).toEqual(['2']);
    // The emptied click group went with it: one click remains in the main sequence.
    const mainSeq = [...descendants(timing, 'p:cTn')].find((c) => c.attrs['nodeType'] === 'mainSeq')!;
    expect(childElements(child(mainSeq, 'p:childTnLst')!)).toHaveLength(1);
    expectConsistentTiming(root);
  });

  it('drops p:timing entirely when the only animated shape goes', () => {
    const root = slide(sp(2, 'Keep') + sp(3, 'Drop'), clickEffects([3]));
    remove(root, 'Drop');
    expect(child(root, 'p:timing')).toBeUndefined();
    expect(serializeElement(root)).not.toContain('spid="3"');
  });

  it('removes a shape that has no animations without touching the timeline', () => {
    const root = slide(sp(2, 'Animated') + sp(3, 'Static'), clickEffects([2]));
    const before = serializeElement(child(root, 'p:timing')!);
    remove(root, 'Static');
    expect(serializeElement(child(root, 'p:timing')!)).toBe(before);
  });

  it('removes effects of the members when a group is removed', () => {
    const group =
      '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
      sp(5, 'Member A') +
      sp(6, 'Member B') +
      '</p:grpSp>';
    const root = slide(sp(2, 'Keep') + group, clickEffects([5, 2, 6]));
    remove(root, 'Group');
    expect(listShapes(spTreeOf(root)).map((s) => s.name)).toEqual(['Keep']);
    expect([...descendants(child(root, 'p:timing')!, 'p:spTgt')].map((t) => t.attrs['spid'])).toEqual(['2']);
    expectConsistentTiming(root);
  });

  it('removes a group member from its group and removes a group left empty', () => {
    const group =
      '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
      sp(5, 'Member A') +
      sp(6, 'Member B') +
      '</p:grpSp>';
    const root = slide(sp(2, 'Keep') + group);
    remove(root, 'Member A');
    expect(listShapes(spTreeOf(root)).map((s) => s.name)).toEqual(['Keep', 'Group', 'Member B']);
    remove(root, 'Member B');
    expect(listShapes(spTreeOf(root)).map((s) => s.name)).toEqual(['Keep']);
  });

  it('removes both branches of an mc:AlternateContent shape', () => {
    const ac =
      '<mc:AlternateContent><mc:Choice Requires="p14">' +
      sp(3, 'Fancy') +
      '</mc:Choice><mc:Fallback>' +
      sp(3, 'Fancy') +
      '</mc:Fallback></mc:AlternateContent>';
    const root = slide(sp(2, 'Keep') + ac, clickEffects([3]));
    remove(root, 'Fancy');
    const xml = serializeElement(root);
    expect(xml).not.toContain('AlternateContent');
    expect(xml).not.toContain('Fancy');
    expect(child(root, 'p:timing')).toBeUndefined();
  });

  it('detaches connectors glued to the removed shape', () => {
    const cxn =
      '<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="4" name="Arrow"/><p:cNvCxnSpPr><a:stCxn id="2" idx="3"/><a:endCxn id="3" idx="1"/>' +
      '</p:cNvCxnSpPr><p:nvPr/></p:nvCxnSpPr><p:spPr/></p:cxnSp>';
    const root = slide(sp(2, 'From') + sp(3, 'To') + cxn);
    remove(root, 'To');
    const props = [...descendants(root, 'p:cNvCxnSpPr')][0]!;
    expect(childElements(props).map((e) => `${e.name}#${e.attrs['id']}`)).toEqual(['a:stCxn#2']);
  });

  itCorpus('removes a media shape with its play command and its media node (SlideWithMedia.pptx)', () => {
    const zip = unzipSync(readCorpus('pptx-automizer/SlideWithMedia.pptx'));
    const root = parseXml(strFromU8(zip['ppt/slides/slide1.xml']!)).root;
    const media = listShapes(spTreeOf(root)).filter((s) => s.kind === 'media');
    expect(media.length).toBeGreaterThan(0);
    for (const shape of media) removeShape(root, shape);
    expectConsistentTiming(root);
    for (const shape of media) expect(serializeElement(root)).not.toContain(`spid="${shape.id}"`);
  });

  itCorpus(
    'keeps every slide of an animated real deck consistent when each animated shape is removed (HowWeRefactor.pptx)',
    () => {
      const zip = unzipSync(readCorpus('poi/ca.ubc.cs.people_~emhill_presentations_HowWeRefactor.pptx'));
      const slides = Object.keys(zip).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
      let removed = 0;
      for (const name of slides) {
        const source = strFromU8(zip[name]!);
        const animated = new Set([...source.matchAll(/spid="(\d+)"/g)].map((m) => Number(m[1])));
        // A few per slide keeps the test quick; the deck has over a hundred animated shapes.
        for (const id of [...animated].slice(0, 3)) {
          const root = parseXml(source).root;
          const { shape } = findShape(spTreeOf(root), { by: 'id', id });
          if (!shape) continue;
          removeShape(root, shape);
          removed++;
          expectConsistentTiming(root);
          expect(serializeElement(root)).not.toMatch(new RegExp(`spid="${id}"`));
        }
      }
      expect(removed).toBeGreaterThan(10);
    },
  );
});

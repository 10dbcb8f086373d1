import { strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { itCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { editPackage } from '../../../test/support/decks/package-edit.js';
import type { Warning } from '../errors.js';
import { child, childElements, descendants, parseXml, serializeXml, type XmlElement } from '../xml/index.js';
import { trimParagraphAnimations } from './animation-timing.js';
import { applyShapeRequests } from '../slides/apply-shape-requests.js';
import { listShapes } from './find-shape.js';

const unreachable = (): never => expect.unreachable('no rich content here');

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

/** One click effect per paragraph range of shape 2 ("appear by paragraph"). */
function slideWithParagraphEffects(ranges: [number, number][]): XmlElement {
  let ctn = 3;
  const clicks = ranges
    .map(
      ([st, end]) =>
        `<p:par><p:cTn id="${ctn++}" fill="hold"><p:stCondLst><p:cond delay="indefinite"/></p:stCondLst><p:childTnLst>` +
        `<p:par><p:cTn id="${ctn++}" presetID="1" presetClass="entr" fill="hold" grpId="0" nodeType="clickEffect"><p:childTnLst>` +
        `<p:set><p:cBhvr><p:cTn id="${ctn++}" dur="1"/><p:tgtEl><p:spTgt spid="2"><p:txEl><p:pRg st="${st}" end="${end}"/></p:txEl>` +
        `</p:spTgt></p:tgtEl></p:cBhvr><p:to><p:strVal val="visible"/></p:to></p:set></p:childTnLst></p:cTn></p:par>` +
        `</p:childTnLst></p:cTn></p:par>`,
    )
    .join('');
  return parseXml(
    `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
      `<p:sp><p:nvSpPr><p:cNvPr id="2" name="List"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>` +
      `<a:p><a:r><a:t>a</a:t></a:r></a:p><a:p><a:r><a:t>b</a:t></a:r></a:p><a:p><a:r><a:t>c</a:t></a:r></a:p></p:txBody></p:sp>` +
      `</p:spTree></p:cSld><p:timing><p:tnLst><p:par><p:cTn id="1" dur="indefinite" restart="never" nodeType="tmRoot"><p:childTnLst>` +
      `<p:seq concurrent="1" nextAc="seek"><p:cTn id="2" dur="indefinite" nodeType="mainSeq"><p:childTnLst>${clicks}</p:childTnLst>` +
      `</p:cTn></p:seq></p:childTnLst></p:cTn></p:par></p:tnLst><p:bldLst><p:bldP spid="2" grpId="0" build="p"/></p:bldLst></p:timing></p:sld>`,
  ).root;
}

const ranges = (root: XmlElement) =>
  [...descendants(root, 'p:pRg')].map((r) => [Number(r.attrs['st']), Number(r.attrs['end'])]);

describe('trimParagraphAnimations', () => {
  it('drops effects on paragraphs the shape no longer has and keeps the others and the build entry', () => {
    const root = slideWithParagraphEffects([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    trimParagraphAnimations(root, 2, 2);
    expect(ranges(root)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect([...descendants(root, 'p:bldP')]).toHaveLength(1);
    const mainSeq = [...descendants(root, 'p:cTn')].find((c) => c.attrs['nodeType'] === 'mainSeq')!;
    expect(childElements(child(mainSeq, 'p:childTnLst')!)).toHaveLength(2);
  });

  it('clamps a range that reaches past the last paragraph', () => {
    const root = slideWithParagraphEffects([[0, 2]]);
    trimParagraphAnimations(root, 2, 1);
    expect(ranges(root)).toEqual([[0, 0]]);
  });

  it('removes the build entry and the timeline when no effect of the shape is left', () => {
    const root = slideWithParagraphEffects([
      [1, 1],
      [2, 2],
    ]);
    trimParagraphAnimations(root, 2, 1);
    expect(child(root, 'p:timing')).toBeUndefined();
  });

  it('leaves other shapes’ effects and whole-shape effects alone', () => {
    const root = slideWithParagraphEffects([[0, 0]]);
    trimParagraphAnimations(root, 99, 1);
    expect(ranges(root)).toEqual([[0, 0]]);
  });

  itCorpus(
    'is applied when text is filled: poi/2411-Performance_Up.pptx with one line per animated shape stays valid',
    async () => {
      const template = readCorpus('poi/2411-Performance_Up.pptx');
      let trimmed = 0;
      const output = editPackage(template, (files) => {
        for (const part of Object.keys(files).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))) {
          const source = strFromU8(files[part]!);
          if (!source.includes('<p:pRg')) continue;
          const doc = parseXml(source);
          const spTree = child(child(doc.root, 'p:cSld')!, 'p:spTree')!;
          const byParagraph = new Set(
            [...source.matchAll(/<p:spTgt spid="(\d+)"><p:txEl><p:pRg st="(\d+)"/g)]
              .filter((m) => Number(m[2]) > 0)
              .map((m) => Number(m[1])),
          );
          const targets = listShapes(spTree).filter((s) => byParagraph.has(s.id) && s.kind === 'text');
          const warnings: Warning[] = [];
          applyShapeRequests(
            {
              slideRoot: doc.root,
              slidePath: 'presentation.slides[0]',
              shapeValidation: 'strict',
              addHyperlink: () => '',
              inheritedXfrm: () => null,
              fillers: { picture: unreachable, table: unreachable, diagram: unreachable },
              fillChart: unreachable,
              warnings,
            },
            targets.map((s, i) => ({
              path: `presentation.slides[0].shapes[${i}]`,
              target: { by: 'id', id: s.id },
              hidden: null,
              remove: false,
              contentField: 'content',
              settings: null,
              content: { kind: 'string', value: 'Only one line now' },
            })),
          );
          trimmed += targets.length;
          for (const s of targets) {
            for (const tgt of descendants(doc.root, 'p:spTgt')) {
              if (tgt.attrs['spid'] !== String(s.id)) continue;
              const range = [...descendants(tgt, 'p:pRg')][0];
              if (range) expect([range.attrs['st'], range.attrs['end']]).toEqual(['0', '0']);
            }
          }
          files[part] = strToU8(serializeXml(doc));
        }
      });
      expect(trimmed).toBeGreaterThan(0);
      await expectValidPptx(output, template);
    },
    240_000,
  );
});

/**
 * Shape operations on real slides from the shared corpus: moving, resizing, filling and hiding shapes (also
 * inside groups), removing animated shapes and AlternateContent shapes. The package must still validate no
 * worse than the template.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { expect, it } from 'vitest';
import { corpusFiles, describeCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { editPackage } from '../../../test/support/decks/package-edit.js';
import type { Warning } from '../errors.js';
import type { ShapeRequest } from '../payload/model.js';
import {
  child,
  descendants,
  parseXml,
  serializeElement,
  serializeXml,
  textContent,
  type XmlDocument,
  type XmlElement,
} from '../xml/index.js';
import { applyShapeRequests } from '../slides/apply-shape-requests.js';
import { cNvPr, listShapes, shapeVariants, type FoundShape } from './find-shape.js';
import { enclosingGroups, toSlideSpace } from './group-transform.js';
import { ownBox } from './shape-properties.js';

const unreachable = (): never => expect.unreachable('no rich content here');

const SLIDE_PART = /^ppt\/slides\/slide\d+\.xml$/;
const spTreeOf = (doc: XmlDocument) => child(child(doc.root, 'p:cSld')!, 'p:spTree')!;

function apply(doc: XmlDocument, requests: ShapeRequest[]): Warning[] {
  const warnings: Warning[] = [];
  applyShapeRequests(
    {
      slideRoot: doc.root,
      slidePath: 'presentation.slides[0]',
      shapeValidation: 'strict',
      addHyperlink: () => {
        throw new Error('no hyperlinks here');
      },
      inheritedXfrm: () => null,
      fillers: { picture: unreachable, table: unreachable, diagram: unreachable },
      fillChart: unreachable,
      warnings,
    },
    requests,
  );
  return warnings;
}

const entry = (id: number, fields: Partial<ShapeRequest>): ShapeRequest => ({
  path: `presentation.slides[0].shapes[${id}]`,
  target: { by: 'id', id },
  hidden: null,
  remove: false,
  contentField: 'content',
  settings: null,
  content: null,
  ...fields,
});

/**
 * Every time node and build entry still targets a shape on the slide (docs/powerpoint-rules.md
 * "Removing a shape").
 */
function expectTimingTargetsExist(doc: XmlDocument): void {
  const ids = new Set(
    [...descendants(doc.root)].filter((e) => e.name.endsWith(':cNvPr')).map((e) => e.attrs['id']),
  );
  const timing = child(doc.root, 'p:timing');
  if (!timing) return;
  for (const el of descendants(timing))
    if (el.attrs['spid'] !== undefined) expect(ids).toContain(el.attrs['spid']);
}

/** What a reader of the slide sees of a shape element: hidden or not, its text, its own solid fill colour. */
const isHidden = (shapeEl: XmlElement): boolean => cNvPr(shapeEl)?.attrs['hidden'] === '1';
const visibleText = (shapeEl: XmlElement): string => {
  const body = child(shapeEl, 'p:txBody');
  return body ? [...descendants(body, 'a:t')].map((t) => textContent(t)).join('') : '';
};
const solidFill = (shapeEl: XmlElement): string | undefined => {
  const fill = child(child(shapeEl, 'p:spPr') ?? shapeEl, 'a:solidFill');
  return fill ? child(fill, 'a:srgbClr')?.attrs['val'] : undefined;
};

/** The validator (.NET on WebAssembly) needs a while per deck, more on a busy machine. */
const VALIDATOR_TIMEOUT = 240_000;

describeCorpus('shape operations on real slides', () => {
  it(
    'ShapeCrawler/077 grouped shape.pptx: moves, resizes, fills and hides shapes inside nested groups',
    async () => {
      const template = readCorpus('ShapeCrawler/077 grouped shape.pptx');
      const output = editPackage(template, (files) => {
        const doc = parseXml(strFromU8(files['ppt/slides/slide1.xml']!));
        const shapes = listShapes(spTreeOf(doc));
        const members = shapes.filter((s) => s.parent.name === 'p:grpSp' && s.kind === 'text');
        expect(members.length).toBeGreaterThan(5);
        // Before: every member visible, with other text and another fill, so each change below is a change.
        for (const s of members) {
          expect(isHidden(s.element), s.name).toBe(false);
          expect(visibleText(s.element), s.name).not.toMatch(/^Member /);
          expect(solidFill(s.element), s.name).not.toBe('FFC000');
        }
        const requests = members.map((s, i) =>
          entry(s.id, {
            settings: { left: 100000 * (i + 1), top: 200000, width: 500000, fillColor: 'FFC000' },
            hidden: i % 3 === 0,
            content: { kind: 'string', value: `Member ${i}` },
          }),
        );
        const warnings = apply(doc, requests);
        expect(warnings.filter((w) => !w.message.includes('overflows'))).toEqual([]);
        // Each member lands where it was asked to, seen on the slide through its groups, and is hidden,
        // filled and coloured as asked.
        members.forEach((s, i) => {
          const box = toSlideSpace(ownBox(s.element)!, enclosingGroups(spTreeOf(doc), s));
          expect(Math.abs(box.x - 100000 * (i + 1))).toBeLessThanOrEqual(2);
          expect(Math.abs(box.y - 200000)).toBeLessThanOrEqual(2);
          expect(Math.abs(box.cx - 500000)).toBeLessThanOrEqual(2);
          expect(isHidden(s.element), s.name).toBe(i % 3 === 0);
          expect(visibleText(s.element), s.name).toBe(`Member ${i}`);
          expect(solidFill(s.element), s.name).toBe('FFC000');
        });
        files['ppt/slides/slide1.xml'] = strToU8(serializeXml(doc));
      });
      await expectValidPptx(output, template);
    },
    VALIDATOR_TIMEOUT,
  );

  it(
    'poi/keyframes.pptx: removing every animated shape leaves slides whose timelines are consistent and valid',
    async () => {
      const template = readCorpus('poi/keyframes.pptx');
      let removed = 0;
      const output = editPackage(template, (files) => {
        for (const part of Object.keys(files).filter((n) => SLIDE_PART.test(n))) {
          const source = strFromU8(files[part]!);
          // Only the timeline's targets: p:control/@spid names a legacy VML shape, not a slide shape.
          const timeline = source.slice(source.indexOf('<p:timing'));
          if (!timeline.startsWith('<p:timing') || !timeline.includes('spid=')) continue;
          const doc = parseXml(source);
          const animated = new Set([...timeline.matchAll(/spid="(\d+)"/g)].map((m) => Number(m[1])));
          const present = listShapes(spTreeOf(doc)).filter((s) => animated.has(s.id));
          apply(
            doc,
            present.map((s) => entry(s.id, { remove: true })),
          );
          removed += present.length;
          const timing = child(doc.root, 'p:timing');
          expect(timing ? serializeElement(timing) : '').not.toMatch(/spid=/);
          expectTimingTargetsExist(doc);
          files[part] = strToU8(serializeXml(doc));
        }
      });
      expect(removed).toBeGreaterThan(0);
      await expectValidPptx(output, template);
    },
    VALIDATOR_TIMEOUT,
  );

  it(
    'Open-XML-SDK/Of16-03.pptx: hides, moves and then removes a chartEx shape that lives in mc:AlternateContent',
    async () => {
      const template = readCorpus('Open-XML-SDK/Of16-03.pptx');
      const hidden = editPackage(template, (files) => {
        const doc = parseXml(strFromU8(files['ppt/slides/slide1.xml']!));
        const chart = listShapes(spTreeOf(doc)).find((s) => s.kind === 'chart')!;
        expect(chart.element.name).toBe('mc:AlternateContent');
        // Both branches (chartEx frame and fallback picture) are hidden and moved.
        const variants = shapeVariants(chart);
        expect(variants.map((v) => v.name)).toEqual(['p:graphicFrame', 'p:pic']);
        for (const v of variants) {
          expect(ownBox(v)).not.toMatchObject({ x: 0, y: 0 }); // before
          expect(isHidden(v)).toBe(false);
        }
        apply(doc, [entry(chart.id, { hidden: true, settings: { left: 0, top: 0 } })]);
        for (const v of variants) {
          expect(ownBox(v)).toMatchObject({ x: 0, y: 0 });
          expect(isHidden(v), v.name).toBe(true);
        }
        files['ppt/slides/slide1.xml'] = strToU8(serializeXml(doc));
      });
      await expectValidPptx(hidden, template);

      const removed = editPackage(template, (files) => {
        const doc = parseXml(strFromU8(files['ppt/slides/slide1.xml']!));
        const chart = listShapes(spTreeOf(doc)).find((s) => s.kind === 'chart')!;
        apply(doc, [entry(chart.id, { remove: true })]);
        expect(serializeXml(doc)).not.toContain('AlternateContent');
        files['ppt/slides/slide1.xml'] = strToU8(serializeXml(doc));
      });
      await expectValidPptx(removed, template);
    },
    VALIDATOR_TIMEOUT,
  );

  it('finds every shape of every corpus slide by its id, and by its name unless the name is shared', () => {
    let checked = 0;
    for (const deck of corpusFiles().filter((f) => !f.strict)) {
      const files = unzipSync(readCorpus(deck), { filter: (f) => SLIDE_PART.test(f.name) });
      for (const part of Object.keys(files)) {
        const source = strFromU8(files[part]!);
        const where = `${deck.file} ${part}`;
        const byId = expectEachFound(
          source,
          (s) => ({ by: 'id', id: s.id }),
          (s) => s.id,
          where,
        );
        const byName = expectEachFound(
          source,
          (s) => ({ by: 'name', name: s.name }),
          (s) => s.name,
          where,
        );
        expect(byName, where).toBe(byId);
        checked += byId;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

/**
 * Toggles `hidden` on every shape of a slide, each through its own entry addressed by `target`: every shape
 * whose key (id or name) is its own must be the one toggled, and each entry on a shared key gets the
 * "first in document order" warning. Returns how many shapes the slide has.
 */
function expectEachFound(
  source: string,
  target: (s: FoundShape) => ShapeRequest['target'],
  key: (s: FoundShape) => string | number,
  where: string,
): number {
  const doc = parseXml(source);
  const shapes = listShapes(spTreeOf(doc));
  const before = shapes.map((s) => shapeVariants(s).map(isHidden));
  const warnings = apply(
    doc,
    shapes.map((s, i) => ({ ...entry(s.id, { hidden: !before[i]![0] }), target: target(s) })),
  );
  const shared = shapes.filter((s) => shapes.filter((t) => key(t) === key(s)).length > 1);
  expect(
    warnings.map((w) => w.message),
    where,
  ).toEqual(shared.map(() => expect.stringMatching(/the first in document order is used$/)));
  shapes.forEach((s, i) => {
    if (shared.includes(s)) return;
    const wanted = !before[i]![0];
    expect(shapeVariants(s).map(isHidden), `${where} ${s.name} (id ${s.id})`).toEqual(
      before[i]!.map(() => wanted),
    );
  });
  return shapes.length;
}

/**
 * Filling text on real slides from the shared corpus (PowerPoint-saved decks): the text goes in, the template's
 * bullets and styles survive, and the package still validates no worse than the template.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { expect, it } from 'vitest';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { corpusFiles, describeCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import { editPackage } from '../../../test/support/decks/package-edit.js';
import type { Warning } from '../errors.js';
import type { ShapeContent, ShapeRequest } from '../payload/model.js';
import { applyShapeRequests } from '../slides/apply-shape-requests.js';
import { listShapes, shapeVariants } from '../shapes/find-shape.js';
import {
  child,
  childElements,
  descendants,
  parseXml,
  serializeElement,
  serializeXml,
  textContent,
  type XmlDocument,
  type XmlElement,
} from '../xml/index.js';
import { PARAGRAPH_PROPERTIES_ORDER } from './paragraph-properties.js';
import { RUN_PROPERTIES_ORDER } from './run-properties.js';
import { replaceTags } from './tags.js';

const unreachable = (): never => expect.unreachable('no rich content here');

const slideParts = (files: Record<string, Uint8Array>) =>
  Object.keys(files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));

const spTreeOf = (doc: XmlDocument) => child(child(doc.root, 'p:cSld')!, 'p:spTree')!;

function fillAll(
  doc: XmlDocument,
  contentFor: (name: string) => ShapeContent,
  addHyperlink: (url: string) => string = () => {
    throw new Error('no hyperlinks in this test');
  },
): Warning[] {
  const warnings: Warning[] = [];
  const requests: ShapeRequest[] = listShapes(spTreeOf(doc))
    .filter((s) => s.kind === 'text')
    .map((s, i) => ({
      path: `presentation.slides[0].shapes[${i}]`,
      target: { by: 'id', id: s.id },
      hidden: null,
      remove: false,
      contentField: 'content',
      settings: null,
      content: contentFor(s.name),
    }));
  applyShapeRequests(
    {
      slideRoot: doc.root,
      slidePath: 'presentation.slides[0]',
      shapeValidation: 'strict',
      addHyperlink,
      inheritedXfrm: () => null,
      fillers: { picture: unreachable, table: unreachable, diagram: unreachable },
      fillChart: unreachable,
      warnings,
    },
    requests,
  );
  return warnings;
}

/** The structural rules of docs/powerpoint-rules.md "Text bodies" for every text body under `root`. */
function expectWellFormedText(root: XmlElement, where: string): void {
  for (const el of descendants(root)) {
    if (el.name === 'p:txBody') {
      const names = childElements(el).map((c) => c.name);
      expect(names[0], `${where}: bodyPr first`).toBe('a:bodyPr');
      expect(names.filter((n) => n === 'a:p').length, `${where}: at least one a:p`).toBeGreaterThan(0);
    } else if (el.name === 'a:p') {
      const names = childElements(el).map((c) => c.name);
      const end = names.indexOf('a:endParaRPr');
      if (end >= 0) expect(end, `${where}: endParaRPr last`).toBe(names.length - 1);
      const pPr = names.indexOf('a:pPr');
      if (pPr >= 0) expect(pPr, `${where}: pPr first`).toBe(0);
    } else if (el.name === 'a:rPr' || el.name === 'a:endParaRPr') {
      expectOrder(el, RUN_PROPERTIES_ORDER, where);
    } else if (el.name === 'a:pPr') {
      expectOrder(el, PARAGRAPH_PROPERTIES_ORDER, where);
    }
  }
}

function expectOrder(el: XmlElement, order: readonly string[], where: string): void {
  const ranks = childElements(el).map((c) => order.indexOf(c.name));
  expect(ranks, `${where}: ${el.name} children in schema order: ${serializeElement(el)}`).toEqual(
    [...ranks].sort((a, b) => a - b),
  );
}

/** The text a reader sees: a:t contents only (some decks are pretty-printed, with whitespace between elements). */
const visibleText = (el: XmlElement) => [...descendants(el, 'a:t')].map((t) => textContent(t)).join('');

const paragraphProps = (sp: XmlElement) =>
  childElements(child(sp, 'p:txBody')!, 'a:p').map((p) => {
    const pPr = child(p, 'a:pPr');
    return pPr ? serializeElement(pPr) : '';
  });

/** The validator (.NET on WebAssembly) needs a while per deck, more on a busy machine. */
const VALIDATOR_TIMEOUT = 240_000;

describeCorpus('filling text on real slides', () => {
  it(
    'poi/layouts.pptx: every text shape of every slide takes three lines and the deck stays valid',
    async () => {
      const template = readCorpus('poi/layouts.pptx');
      const seen: string[] = [];
      const output = editPackage(template, (files) => {
        for (const part of slideParts(files)) {
          const doc = parseXml(strFromU8(files[part]!));
          const before = new Map(
            listShapes(spTreeOf(doc))
              .filter((s) => s.kind === 'text' && child(s.element, 'p:txBody'))
              .map((s) => [s.id, paragraphProps(s.element)]),
          );
          fillAll(doc, (name) => ({ kind: 'string', value: `${name} A\n${name} B\n${name} C` }));
          for (const shape of listShapes(spTreeOf(doc)).filter((s) => s.kind === 'text')) {
            const ps = childElements(child(shape.element, 'p:txBody')!, 'a:p');
            expect(ps.map((p) => visibleText(p))).toEqual([
              `${shape.name} A`,
              `${shape.name} B`,
              `${shape.name} C`,
            ]);
            // Paragraph i keeps template paragraph i's pPr (the last one for any beyond).
            const templatePPr = before.get(shape.id) ?? [''];
            expect(paragraphProps(shape.element)).toEqual(
              [0, 1, 2].map((i) => templatePPr[Math.min(i, templatePPr.length - 1)]),
            );
            seen.push(`${part}:${shape.name}`);
          }
          expectWellFormedText(doc.root, part);
          files[part] = strToU8(serializeXml(doc));
        }
      });
      expect(seen).toContain('ppt/slides/slide1.xml:Title 1');
      expect(seen).toContain('ppt/slides/slide1.xml:Subtitle 2');
      const slide1 = parseXml(strFromU8(unzipSync(output)['ppt/slides/slide1.xml']!));
      const title = listShapes(spTreeOf(slide1)).find((s) => s.name === 'Title 1')!;
      const run = [...descendants(title.element, 'a:r')][0]!;
      // The template run's lang survives; its stale dirty flag does not.
      expect(child(run, 'a:rPr')!.attrs).toEqual({ lang: 'en-US', smtClean: '0' });
      await expectValidPptx(output, template);
    },
    VALIDATOR_TIMEOUT,
  );

  it(
    'pptx-automizer/TextReplaceBullets.pptx: numbered and nested bullets survive a fill, and runs formatting applies',
    async () => {
      const template = readCorpus('pptx-automizer/TextReplaceBullets.pptx');
      const output = editPackage(template, (files) => {
        const nested = parseXml(strFromU8(files['ppt/slides/slide2.xml']!));
        fillAll(nested, () => ({ kind: 'string', value: 'Level one\nLevel two\nLevel three\nStill three' }));
        const shape = listShapes(spTreeOf(nested)).find((s) => s.name === '@AutomateNestedBullets')!;
        const ps = childElements(child(shape.element, 'p:txBody')!, 'a:p');
        expect(ps.map((p) => textContent(p))).toEqual([
          'Level one',
          'Level two',
          'Level three',
          'Still three',
        ]);
        const bullets = ps.map((p) => {
          const pPr = child(p, 'a:pPr')!;
          return [
            pPr.attrs['lvl'] ?? '0',
            child(pPr, 'a:buChar')!.attrs['char'],
            child(pPr, 'a:buFont')!.attrs['typeface'],
          ];
        });
        expect(bullets).toEqual([
          ['0', '•', 'Arial'],
          ['1', 'o', 'Courier New'],
          ['2', 'v', 'Wingdings'],
          ['2', 'v', 'Wingdings'],
        ]);
        // The template's theme colour on the runs is kept.
        for (const p of ps)
          expect(serializeElement(child(child(p, 'a:r')!, 'a:rPr')!)).toContain(
            '<a:schemeClr val="accent1">',
          );
        expectWellFormedText(nested.root, 'slide2');
        files['ppt/slides/slide2.xml'] = strToU8(serializeXml(nested));

        const numbered = parseXml(strFromU8(files['ppt/slides/slide1.xml']!));
        // The caller's side of a hyperlink: a new External relationship in the slide's rels part.
        const relsName = 'ppt/slides/_rels/slide1.xml.rels';
        const addHyperlink = (url: string) => {
          const id = 'rIdLink1';
          files[relsName] = strToU8(
            strFromU8(files[relsName]!).replace(
              '</Relationships>',
              `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" ` +
                `Target="${url.replace(/&/g, '&amp;')}" TargetMode="External"/></Relationships>`,
            ),
          );
          return id;
        };
        fillAll(
          numbered,
          () => ({
            kind: 'text',
            fromRuns: true,
            paragraphs: [
              {
                props: {},
                runs: [
                  { text: 'Heading ', props: { size: 2000 } },
                  { text: 'bold', props: { bold: true, color: 'C00000' } },
                ],
              },
              {
                props: {},
                runs: [
                  { text: 'first numbered', props: { underline: 'sng', highlight: 'FFFF00' } },
                  { text: ' link', props: { hyperlink: 'https://example.com/?a=1&b=2', italic: true } },
                ],
              },
              {
                props: { level: 1 },
                runs: [{ text: 'second numbered', props: { font: 'Courier New', strike: true } }],
              },
              {
                props: { bullet: false, align: 'ctr' },
                runs: [{ text: 'no bullet', props: { baseline: 30000 } }],
              },
            ],
          }),
          addHyperlink,
        );
        const automate = listShapes(spTreeOf(numbered)).find((s) => s.name === '@AutomateBullets')!;
        const qs = childElements(child(automate.element, 'p:txBody')!, 'a:p');
        expect(qs.map((p) => visibleText(p))).toEqual([
          'Heading bold',
          'first numbered link',
          'second numbered',
          'no bullet',
        ]);
        const link = childElements(qs[1]!, 'a:r')[1]!;
        expect(child(child(link, 'a:rPr')!, 'a:hlinkClick')!.attrs['r:id']).toBe('rIdLink1');
        expect(child(child(qs[1]!, 'a:pPr')!, 'a:buAutoNum')!.attrs['type']).toBe('arabicPeriod');
        expect(child(qs[2]!, 'a:pPr')!.attrs['lvl']).toBe('1');
        expect(child(child(qs[3]!, 'a:pPr')!, 'a:buNone')).toBeDefined();
        expect(child(child(qs[3]!, 'a:pPr')!, 'a:buAutoNum')).toBeUndefined();
        expectWellFormedText(numbered.root, 'slide1');
        files['ppt/slides/slide1.xml'] = strToU8(serializeXml(numbered));
      });
      await expectValidPptx(output, template);
    },
    VALIDATOR_TIMEOUT,
  );

  it(
    'pptx-automizer/TextReplaceBullets.pptx: tags are replaced in place and the deck stays valid',
    async () => {
      const template = readCorpus('pptx-automizer/TextReplaceBullets.pptx');
      const values: Record<string, string> = {
        bullet1: 'One\nTwo',
        bullet2: 'Dot',
        'bullet2-1': 'Sub\vsoft break',
      };
      const output = editPackage(template, (files) => {
        const doc = parseXml(strFromU8(files['ppt/slides/slide1.xml']!));
        const body = () => child(listShapes(spTreeOf(doc))[0]!.element, 'p:txBody')!;
        const bulletOf = (p: XmlElement) => {
          const pPr = child(p, 'a:pPr');
          return pPr
            ? childElements(pPr)
                .filter((c) => c.name.startsWith('a:bu'))
                .map(serializeElement)
            : [];
        };
        const before = childElements(body(), 'a:p');
        const tagged = (key: string) => before.find((p) => visibleText(p) === `{{${key}}}`)!;
        const [one, dot, sub] = ['bullet1', 'bullet2', 'bullet2-1'].map(tagged);
        const bullets = [one!, dot!, sub!].map(bulletOf);
        const colourOf = (p: XmlElement) => serializeElement(child(childElements(p, 'a:r')[0]!, 'a:rPr')!);
        const colours = [one!, dot!, sub!].map(colourOf);

        const report = replaceTags(doc.root, (key) => values[key]);
        expect([...report.used].sort()).toEqual(Object.keys(values).sort());
        // The text a reader sees: each tag's value where the tag was, "\n" a new paragraph with the same
        // bullet, "\v" a line break inside the paragraph; the static text around them untouched.
        const after = childElements(body(), 'a:p');
        expect(after.map((p) => visibleText(p))).toEqual([
          'Static Text',
          '',
          'One',
          'Two',
          '',
          'Next Line with static text.',
          '',
          'Dot',
          'Subsoft break',
          '',
          'Final Line',
          '',
        ]);
        const at = (text: string) => after.find((p) => visibleText(p) === text)!;
        expect(['One', 'Two', 'Dot', 'Subsoft break'].map((t) => bulletOf(at(t)))).toEqual([
          bullets[0],
          bullets[0],
          bullets[1],
          bullets[2],
        ]);
        expect(['One', 'Two', 'Dot', 'Subsoft break'].map((t) => colourOf(at(t)))).toEqual([
          colours[0],
          colours[0],
          colours[1],
          colours[2],
        ]);
        expect(childElements(at('Subsoft break')).map((c) => c.name)).toEqual([
          'a:pPr',
          'a:r',
          'a:br',
          'a:r',
        ]);
        expectWellFormedText(doc.root, 'slide1');
        files['ppt/slides/slide1.xml'] = strToU8(serializeXml(doc));
      });
      await expectValidPptx(output, template);
    },
    VALIDATOR_TIMEOUT,
  );

  it('every text shape on every slide of every corpus deck can be filled without breaking text structure', () => {
    let filled = 0;
    for (const deck of corpusFiles().filter((f) => !f.strict)) {
      const files = unzipSync(readCorpus(deck), {
        filter: (f) => /^ppt\/slides\/slide\d+\.xml$/.test(f.name),
      });
      for (const part of slideParts(files)) {
        const doc = parseXml(strFromU8(files[part]!));
        const where = `${deck.file} ${part}`;
        const texts = listShapes(spTreeOf(doc)).filter((s) => s.kind === 'text');
        fillAll(doc, (name) => ({ kind: 'string', value: `${name}\nsecond line\vwith a break` }));
        for (const shape of texts) {
          for (const sp of shapeVariants(shape)) {
            expect(visibleText(child(sp, 'p:txBody')!), where).toBe(`${shape.name}second linewith a break`);
          }
          filled++;
        }
        expectWellFormedText(doc.root, where);
        // The result must parse again (escaping, no illegal characters).
        expect(() => parseXml(serializeXml(doc))).not.toThrow();
      }
    }
    expect(filled).toBeGreaterThan(500);
  });
});

import { strFromU8, strToU8 } from 'fflate';
import { expect, it } from 'vitest';
import { generate, inspect } from '../../../src/engine/index.js';
import { describeCorpus, readCorpus } from '../corpus/corpus.js';
import { editPackage } from '../decks/package-edit.js';
import { checkPackageInvariantsAgainst } from './package-invariants.js';
import { is } from '../readers/namespaces.js';
import { openPackage, readPartTree, relsOf, type OpcPackage } from '../readers/opc-package.js';
import { mapPartSources, type SourcePart } from './part-sources.js';
import { walk } from '../readers/xml-tree.js';

const open = (bytes: Uint8Array): OpcPackage => openPackage(bytes, () => undefined);

/** Slide part names in presentation order. */
function slidesInOrder(pkg: OpcPackage): string[] {
  const rels = relsOf(pkg, '/ppt/presentation.xml');
  const presentation = readPartTree(pkg, '/ppt/presentation.xml')!;
  return [...walk(presentation)]
    .filter((el) => is(el, 'p', 'sldId'))
    .map(
      (el) => rels.find((r) => r.id === el.attrs.find((a) => a.local === 'id' && a.ns)?.value)!.targetPart!,
    );
}

const targetOf = (pkg: OpcPackage, part: string, type: string): string =>
  relsOf(pkg, part).find((r) => r.type.endsWith(`/${type}`))!.targetPart!;

describeCorpus('mapPartSources', () => {
  it("maps the engine's clones (renamed, reordered) and their own charts and workbooks to their sources", () => {
    const template = readCorpus('pptx-automizer/ChartBarsStacked.pptx');
    const result = generate({
      files: new Map([['t.pptx', template]]),
      payload: {
        presentation: {
          template: 't.pptx',
          slides: [1, 0, 0].map((index) => ({ slide_index: index })),
        },
      },
    });
    const output = open(result.bytes);
    const source = open(template);
    const sources = mapPartSources(output, [template]);
    const templateSlides = slidesInOrder(source);
    const outputSlides = slidesInOrder(output);
    [1, 0, 0].forEach((index, i) => {
      const from = templateSlides[index]!;
      const slide = outputSlides[i]!;
      expect(sources.of(slide), slide).toEqual([`0:${from.toLowerCase()}`]);
      const chart = targetOf(output, slide, 'chart');
      expect(sources.of(chart), chart).toEqual([`0:${targetOf(source, from, 'chart').toLowerCase()}`]);
      const workbook = targetOf(output, chart, 'package');
      expect(sources.of(workbook), workbook).toEqual([
        `0:${targetOf(source, targetOf(source, from, 'chart'), 'package').toLowerCase()}`,
      ]);
    });
    // The three clones' charts are three parts, each mapped to its own source.
    expect(new Set(outputSlides.map((s) => targetOf(output, s, 'chart'))).size).toBe(3);
  });

  it('finds the source of every slide of a real deck after its text is replaced (poi/bug62513.pptx, 19 slides)', () => {
    const template = readCorpus('poi/bug62513.pptx');
    const before = inspect(template);
    const order = [...before.slides.map((s) => s.index).reverse(), 0, 0];
    const result = generate({
      files: new Map([['t.pptx', template]]),
      payload: {
        presentation: {
          template: 't.pptx',
          slides: order.map((index, position) => ({
            slide_index: index,
            shapes: before.slides[index]!.shapes.filter((s) => s.kind === 'text' && s.name !== '').map(
              (s) => ({
                shapeId: s.id,
                content: `Replaced ${position}-${s.id}`,
              }),
            ),
          })),
        },
      },
    });
    const sources = mapPartSources(open(result.bytes), [template]);
    const templateSlides = slidesInOrder(open(template)).map((p): SourcePart => `0:${p.toLowerCase()}`);
    const found = slidesInOrder(open(result.bytes)).map((slide) => sources.of(slide));
    // Always the true source; alone, except where one template slide holds everything another does and
    // more (slide 10 is slide 9 with a position of its own and more paragraphs; 7 and 6 likewise): once
    // the text is replaced, nothing tells them apart, and both stay candidates (the check gets stricter).
    expect(found.map((candidates, i) => candidates.includes(templateSlides[order[i]!]!))).not.toContain(
      false,
    );
    const ambiguous = found.flatMap((candidates, i) => (candidates.length > 1 ? [order[i]] : []));
    expect(ambiguous).toEqual([8, 5]);
  });

  it('keeps every template slide that matches equally well, so a flaw only one of them has is forgiven on none', () => {
    // Slide 2 made a copy of slide 1; slide 1's relationships get a dangling one (a flaw outside the slide XML).
    const base = readCorpus('python-pptx/txt-font-props.pptx');
    const RT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const dangling = `<Relationship Id="rId99" Type="${RT}/image" Target="../media/missing.png"/></Relationships>`;
    const template = editPackage(base, (f) => {
      f['ppt/slides/slide2.xml'] = f['ppt/slides/slide1.xml']!;
      const rels = strFromU8(f['ppt/slides/_rels/slide1.xml.rels']!);
      f['ppt/slides/_rels/slide1.xml.rels'] = strToU8(rels.replace('</Relationships>', dangling));
    });
    const sources = mapPartSources(open(template), [template]);
    expect(sources.of('/ppt/slides/slide1.xml')).toEqual([
      '0:/ppt/slides/slide1.xml',
      '0:/ppt/slides/slide2.xml',
    ]);
    expect(sources.of('/ppt/slides/slide3.xml')).toEqual(['0:/ppt/slides/slide3.xml']);
    // The template compared with itself re-zipped: slide 1's flaw cannot be told from a new one.
    expect(
      checkPackageInvariantsAgainst(
        editPackage(template, () => undefined),
        template,
      ),
    ).toEqual([
      'rel-target-missing /ppt/slides/_rels/slide1.xml.rels: rId99 -> "../media/missing.png" (/ppt/media/missing.png) does not exist',
    ]);
  });

  it('maps a part nothing reaches to a template part with the same bytes, and a name that is no part to itself', () => {
    const template = readCorpus('python-pptx/shp-freeform.pptx');
    const output = editPackage(template, (f) => {
      f['ppt/media/orphan.jpeg'] = f['docProps/thumbnail.jpeg']!;
    });
    const sources = mapPartSources(open(output), [template]);
    expect(sources.of('/ppt/media/orphan.jpeg')).toEqual(['0:/docprops/thumbnail.jpeg']);
    expect(sources.of('/ppt/slides/')).toEqual(['0:/ppt/slides/']);
  });
});

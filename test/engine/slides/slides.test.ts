/** Slide cloning: owned parts copied, shared parts shared, dropped slides leave nothing behind. */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { GENERATED_CHARTS, generatedChartsDeck } from '../../support/decks/chart-templates.js';
import { itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { linkedSlidesDeck } from '../../support/decks/one-slide-deck.js';
import { picturesDeck } from '../../support/decks/picture-decks.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { editPart } from '../../support/decks/package-edit.js';
import { paragraphs, partNames, parts, run, SAMPLE, slideParts } from '../../support/decks/deck.js';

const count = (names: string[], pattern: RegExp): number => names.filter((n) => pattern.test(n)).length;
const relsOf = (slidePart: string): string =>
  slidePart.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels');

describe('owned and shared parts', () => {
  // The owned chart template with two more chart slides: three slides, each with its chart and workbook.
  const charts = generatedChartsDeck({
    pie: GENERATED_CHARTS['pie 3-D']!,
    line: GENERATED_CHARTS['line 3-D']!,
  }).bytes;

  it('drops the charts and workbooks of slides that are not in the output', async () => {
    const result = run(charts, { slides: [{ slide_index: 1 }] });
    const names = partNames(result.bytes);
    expect(count(names, /^ppt\/charts\/chart\d+\.xml$/)).toBe(1);
    expect(count(names, /^ppt\/embeddings\/.*\.xlsx$/)).toBe(1);
    expect(count(names, /^ppt\/slides\/slide\d+\.xml$/)).toBe(1);
    await expectValidPptx(result.bytes, charts);
  });

  // The owned chart templates have no chart style and colour parts; a real deck's charts do.
  itCorpus('drops and copies the chart style and colour parts with their chart', async () => {
    const stacked = readCorpus('pptx-automizer/ChartBarsStacked.pptx');
    const one = run(stacked, { slides: [{ slide_index: 1 }] });
    expect(count(partNames(one.bytes), /^ppt\/charts\/(style|colors)\d+\.xml$/)).toBe(2);
    await expectValidPptx(one.bytes, stacked);
    const three = run(stacked, { slides: [{ slide_index: 0 }, { slide_index: 0 }, { slide_index: 0 }] });
    expect(count(partNames(three.bytes), /^ppt\/charts\/style\d+\.xml$/)).toBe(3);
    expect(count(partNames(three.bytes), /^ppt\/charts\/colors\d+\.xml$/)).toBe(3);
    await expectValidPptx(three.bytes, stacked);
  });

  it('gives every clone its own chart and workbook', async () => {
    const result = run(charts, { slides: [{ slide_index: 0 }, { slide_index: 0 }, { slide_index: 0 }] });
    const all = parts(result.bytes);
    const names = [...all.keys()];
    expect(count(names, /^ppt\/charts\/chart\d+\.xml$/)).toBe(3);
    expect(count(names, /^ppt\/embeddings\/.*\.xlsx$/)).toBe(3);
    const chartTargets = slideParts(result.bytes).map(
      (p) => /Target="([^"]*charts\/chart\d+\.xml)"/.exec(all.get(relsOf(p))!)?.[1],
    );
    expect(new Set(chartTargets).size).toBe(3);
    await expectValidPptx(result.bytes, charts);
  });

  it('shares pictures between clones instead of copying them', async () => {
    const template = picturesDeck();
    const once = run(template, { slides: [{ slide_index: 0 }] });
    const thrice = run(template, { slides: [{ slide_index: 0 }, { slide_index: 0 }, { slide_index: 0 }] });
    expect(count(partNames(thrice.bytes), /^ppt\/media\//)).toBe(
      count(partNames(once.bytes), /^ppt\/media\//),
    );
    await expectValidPptx(once.bytes, template);
    await expectValidPptx(thrice.bytes, template);
  });

  it('gives each clone its own notes slide pointing back at it', async () => {
    // The layouts template's slide 9 has a notes page.
    const template = layoutsTemplate();
    const result = run(template, { slides: [{ slide_index: 9 }, { slide_index: 9 }] });
    const all = parts(result.bytes);
    const notes = slideParts(result.bytes).map(
      (p) => /Target="\.\.\/notesSlides\/(notesSlide\d+\.xml)"/.exec(all.get(relsOf(p))!)?.[1],
    );
    expect(new Set(notes).size).toBe(2);
    slideParts(result.bytes).forEach((slide, i) => {
      const back = all.get(`ppt/notesSlides/_rels/${notes[i]}.rels`)!;
      expect(back).toContain(`Target="../slides/${slide.split('/').pop()}"`);
    });
    await expectValidPptx(result.bytes, template);
  });
});

describe('slide list', () => {
  it('keeps payload order, template ids for first uses and fresh unique ids for clones', async () => {
    const result = run(SAMPLE, {
      slides: [{ slide_index: 2 }, { slide_index: 0 }, { slide_index: 2 }, { slide_id: 257 }],
    });
    const presentation = parts(result.bytes).get('ppt/presentation.xml')!;
    const ids = [...presentation.matchAll(/<p:sldId id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids.slice(0, 2)).toEqual([258, 256]);
    expect(ids[3]).toBe(257);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => id >= 256 && id < 2 ** 31)).toBe(true);
    const texts = slideParts(result.bytes).map(
      (p) => paragraphs(parts(result.bytes).get(p)!).filter(Boolean)[0],
    );
    expect(texts).toEqual(['Thank you', 'Quarterly review', 'Thank you', 'Highlights']);
    await expectValidPptx(result.bytes, SAMPLE);
  });

  itCorpus(
    "writes a slide nobody changes as the template's own bytes, and counts it hidden when it is",
    async () => {
      const slidePart = 'ppt/slides/slide1.xml';
      // One slide, hidden (show="0"). Its empty elements are rewritten as `<x />`, which our serialiser would
      // write `<x/>`: the bytes only survive when the part is not written again.
      const template = editPart(readCorpus('ShapeCrawler/032.pptx'), slidePart, (xml) =>
        xml.replaceAll('"/>', '" />'),
      );
      const templateSlide = unzipSync(template)[slidePart]!;
      const unchanged = run(template, { slides: [{ slide_index: 0 }] });
      expect(unzipSync(unchanged.bytes)[slidePart]).toEqual(templateSlide);
      expect(parts(unchanged.bytes).get('docProps/app.xml')).toContain('<HiddenSlides>1</HiddenSlides>');
      await expectValidPptx(unchanged.bytes, template);

      // A change, a tag or a second copy makes the slide our own writing again.
      const name = inspect(template).slides[0]!.shapes.find((s) => s.kind === 'text')!.name;
      const filled = run(template, { slides: [{ slide_index: 0, shapes: [{ name, content: 'Changed' }] }] });
      expect(parts(filled.bytes).get(slidePart)).toContain('Changed');
      expect(parts(filled.bytes).get('docProps/app.xml')).toContain('<HiddenSlides>1</HiddenSlides>');
      await expectValidPptx(filled.bytes, template);
      const copied = run(template, { slides: [{ slide_index: 0 }, { slide_index: 0 }] });
      expect(parts(copied.bytes).get('docProps/app.xml')).toContain('<HiddenSlides>2</HiddenSlides>');
      await expectValidPptx(copied.bytes, template);
    },
  );

  itCorpus('gives every clone its own p14:creationId and leaves the first use its own', async () => {
    const template = readCorpus('Open-XML-SDK/Presentation.pptx');
    const original = /<p14:creationId [^>]*val="(\d+)"/.exec(
      parts(template).get('ppt/slides/slide1.xml')!,
    )?.[1];
    expect(original).toBeDefined();
    const result = run(template, { slides: [{ slide_index: 0 }, { slide_index: 0 }, { slide_index: 0 }] });
    const ids = slideParts(result.bytes).map(
      (p) => /<p14:creationId [^>]*val="(\d+)"/.exec(parts(result.bytes).get(p)!)?.[1],
    );
    expect(ids[0]).toBe(original);
    expect(new Set(ids).size).toBe(3);
    await expectValidPptx(result.bytes, template);
  });

  it('names the index and the slide count when slide_index is out of range', () => {
    expect(() => run(SAMPLE, { slides: [{ slide_index: 0 }, { slide_index: 7 }] })).toThrow(
      'presentation.slides[1].slide_index: slide_index 7 is out of range: the template has 3 slides (0–2)',
    );
    expect(() => run(SAMPLE, { slides: [{ slide_id: 999 }] })).toThrow(
      /no slide with id 999 \(its slide ids: 256, 257, 258\)/,
    );
  });

  itCorpus('creates a slide from a layout, also in a template without slides', async () => {
    const template = readCorpus('python-pptx/no-slides.pptx');
    const result = run(template, {
      slides: [{ type: 'layout', slide_index: 1, shapes: [{ name: 'Title 1', content: 'From a layout' }] }],
    });
    const slide = parts(result.bytes).get(slideParts(result.bytes)[0]!)!;
    expect(paragraphs(slide)).toContain('From a layout');
    await expectValidPptx(result.bytes, template);
  });

  it('writes the application version export_version asks for, and the result file name', async () => {
    const result = run(SAMPLE, {
      export_version: 'pptx2013',
      resultFileName: 'Board deck.pptx',
      slides: [{ slide_index: 0 }],
    });
    expect(parts(result.bytes).get('docProps/app.xml')).toContain('<AppVersion>15.0000</AppVersion>');
    expect(result.fileName).toBe('Board deck.pptx');
    await expectValidPptx(result.bytes, SAMPLE);
    const unnamed = run(SAMPLE, { slides: [{ slide_index: 0 }] });
    expect(unnamed.fileName).toBe('template-generated.pptx');
    await expectValidPptx(unnamed.bytes, SAMPLE);
  });
});

describe('references between slides', () => {
  // Slide 0 links to slide 1.
  const linked = linkedSlidesDeck();

  it('removes a link to a slide that is not in the output, with a warning', async () => {
    const result = run(linked, { slides: [{ slide_index: 0 }] });
    const all = parts(result.bytes);
    const slide = slideParts(result.bytes)[0]!;
    expect(all.get(relsOf(slide))).not.toMatch(/relationships\/slide"/);
    expect(result.warnings.some((w) => /link/.test(w.message))).toBe(true);
    await expectValidPptx(result.bytes, linked);
  });

  it('says once that links went, however many slides a long table continues on', async () => {
    const cell =
      '<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></a:txBody><a:tcPr/></a:tc>';
    const table =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="90" name="Rows"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
      '<p:xfrm><a:off x="457200" y="3429000"/><a:ext cx="4000000" cy="740000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">' +
      '<a:tbl><a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="2000000"/><a:gridCol w="2000000"/></a:tblGrid>' +
      `<a:tr h="370000">${cell}${cell}</a:tr><a:tr h="370000">${cell}${cell}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const withTable = editPart(linked, 'ppt/slides/slide1.xml', (xml) =>
      xml.replace('</p:spTree>', `${table}</p:spTree>`),
    );
    const rows = Array.from({ length: 40 }, (_, i) => [`row ${i}`, i]);
    const result = run(withTable, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Rows', content: rows, overflow: 'continue' }] }],
    });
    expect(slideParts(result.bytes).length).toBeGreaterThan(2);
    expect(result.warnings.filter((w) => /link\(s\) to template slides/.test(w.message))).toEqual([
      {
        path: 'presentation.slides[0]',
        // The one link of the slide, counted once, not once per copy.
        message: 'removed 1 link(s) to template slides that are not in the output',
      },
    ]);
    await expectValidPptx(result.bytes, withTable);
  });

  it('points a kept link at the output slide', async () => {
    const result = run(linked, { slides: [{ slide_index: 1 }, { slide_index: 0 }] });
    const all = parts(result.bytes);
    const [target, source] = slideParts(result.bytes);
    expect(all.get(relsOf(source!))).toContain(`relationships/slide" Target="${target!.split('/').pop()}"`);
    await expectValidPptx(result.bytes, linked);
  });

  itCorpus('rewrites sections onto the output slides, in presentation order', async () => {
    const template = readCorpus('ShapeCrawler/021.pptx');
    const result = run(template, { slides: [{ slide_index: 1 }, { slide_index: 0 }, { slide_index: 1 }] });
    const presentation = parts(result.bytes).get('ppt/presentation.xml')!;
    const slideIds = [...presentation.matchAll(/<p:sldId id="(\d+)"/g)].map((m) => m[1]);
    const sectionIds = [...presentation.matchAll(/<p14:sldId id="(\d+)"/g)].map((m) => m[1]);
    expect(sectionIds).toEqual(slideIds);
    await expectValidPptx(result.bytes, template);
  });

  it('rewrites custom shows onto the clones of their slides and drops emptied ones', async () => {
    const template = editPart(SAMPLE, 'ppt/presentation.xml', (xml) =>
      xml.replace(
        '<p:defaultTextStyle>',
        '<p:custShowLst><p:custShow name="Short" id="0"><p:sldLst><p:sld r:id="rId11"/><p:sld r:id="rId12"/></p:sldLst></p:custShow>' +
          '<p:custShow name="Intro" id="1"><p:sldLst><p:sld r:id="rId10"/></p:sldLst></p:custShow></p:custShowLst><p:defaultTextStyle>',
      ),
    );
    const result = run(template, { slides: [{ slide_index: 1 }, { slide_index: 2 }, { slide_index: 1 }] });
    const all = parts(result.bytes);
    const presentation = all.get('ppt/presentation.xml')!;
    expect(presentation).not.toContain('name="Intro"');
    const showIds = [
      .../<p:custShow name="Short"[\s\S]*?<\/p:custShow>/.exec(presentation)![0].matchAll(/r:id="([^"]+)"/g),
    ].map((m) => m[1]);
    const rels = all.get('ppt/_rels/presentation.xml.rels')!;
    const targetOf = (id: string): string =>
      new RegExp(`Id="${id}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="${id}"`)
        .exec(rels)!
        .slice(1)
        .find(Boolean)!;
    // "Short" listed template slides 1 and 2: now both clones of slide 1 (positions 0 and 2), then slide 2.
    const output = slideParts(result.bytes);
    expect(showIds.map((id) => `ppt/${targetOf(id!)}`)).toEqual([output[0], output[2], output[1]]);
    await expectValidPptx(result.bytes, template);
  });
});

describe('removed shapes', () => {
  it('takes the picture a removed shape showed out of the package', async () => {
    const template = picturesDeck();
    const pictures = inspect(template).slides[0]!.shapes.filter((s) => s.kind === 'picture');
    expect(pictures.length).toBeGreaterThan(0);
    const kept = run(template, { slides: [{ slide_index: 0 }] });
    const result = run(template, {
      slides: [{ slide_index: 0, shapes: pictures.map((p) => ({ shapeId: p.id, remove: true })) }],
    });
    const names = partNames(result.bytes);
    expect(count(names, /^ppt\/media\//)).toBeLessThan(count(partNames(kept.bytes), /^ppt\/media\//));
    await expectValidPptx(kept.bytes, template);
    const slide = parts(result.bytes).get(slideParts(result.bytes)[0]!)!;
    expect(slide).not.toContain('<p:pic>');
    await expectValidPptx(result.bytes, template);
  });
});

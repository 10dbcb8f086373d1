/**
 * Slides from several templates in one deck (docs/payload.md `template_list`; docs/powerpoint-rules.md
 * "Slides from several templates"): each slide keeps its own template's master, layouts and theme, the deck stays
 * valid, and templates that cannot share a presentation (different slide sizes) are refused with a message saying
 * why.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult } from '../../src/engine/index.js';
import { chartDeck } from '../support/decks/chart-templates.js';
import { corpusFiles, describeCorpus, itCorpus, readCorpus, spread } from '../support/corpus/corpus.js';
import { engineErrorOf } from '../support/checks/engine-error.js';
import { harbourTemplate } from '../support/decks/harbour-template.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { linkedSlidesDeck } from '../support/decks/one-slide-deck.js';
import { editPackage } from '../support/decks/package-edit.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { renderToPdfText } from '../support/readers/render.js';
import { LEDGER_STYLE_ID, LEDGER_STYLE_NAME, tableStyleDeck } from '../support/decks/table-style-deck.js';
import { paragraphs, parts, slideParts } from '../support/decks/deck.js';

// Owned templates (test/support), all 4:3 but WIDE: LAYOUTS (one master, the "Layouts" theme, eleven layouts, a
// notes page on slide 9), HARBOUR (another look: two masters with the themes "Harbour Orange" and "Harbour Blue",
// three layouts each, no notes master), CHARTS (a chart with its workbook, on the layouts template's master),
// LINKED (slide 0 links to slide 1), TABLES (a table in a style of its own) and WIDE (Harbour in 16:9).
const LAYOUTS = layoutsTemplate();
const HARBOUR = harbourTemplate('4:3');
const CHARTS = chartDeck();
const WIDE = harbourTemplate('16:9');
const LINKED = linkedSlidesDeck();

const files = new Map([
  ['layouts.pptx', LAYOUTS],
  ['harbour.pptx', HARBOUR],
  ['charts.pptx', CHARTS],
]);

const TEMPLATE_LIST = [
  { template_id: 1, template: 'layouts.pptx' },
  { template_id: 'harbour', template: 'harbour.pptx' },
  { template_id: 3, template: 'charts.pptx' },
];

/**
 * The engine on `templates` (each uploaded as `<template_id>.pptx` and listed in `template_list`), with
 * `slides` given as `[template_id, slide_index]`.
 */
function generateFrom(
  templates: Record<string, Uint8Array>,
  slides: readonly (readonly [string, number])[],
): GenerateResult {
  const ids = Object.keys(templates);
  return generate({
    files: new Map(ids.map((id) => [`${id}.pptx`, templates[id] as Uint8Array])),
    payload: {
      presentation: {
        template_list: ids.map((id) => ({ template_id: id, template: `${id}.pptx` })),
        slides: slides.map(([id, index]) => ({ template_id: id, slide_index: index })),
      },
    },
  });
}

function combined(): Uint8Array {
  return generate({
    files,
    payload: {
      presentation: {
        template_list: TEMPLATE_LIST,
        slides: [
          { template_id: 1, slide_index: 0, shapes: [{ name: 'Title 1', content: 'First from layouts' }] },
          {
            template_id: 'harbour',
            slide_index: 1,
            shapes: [{ name: 'Headline', content: 'Orange from harbour' }],
            notes: 'Notes written on an imported slide',
          },
          { template_id: 3, slide_index: 0, shapes: [{ name: 'Title 1', content: 'Chart from charts' }] },
          {
            template_id: 'harbour',
            slide_index: 2,
            shapes: [{ name: 'Headline', content: 'Blue from harbour' }],
          },
          { template_id: 1, slide_index: 9, shapes: [{ name: 'Title 4', content: 'Pictures from layouts' }] },
          {
            template_id: 'harbour',
            slide_index: 0,
            shapes: [{ name: 'Headline', content: 'Title slide from harbour' }],
          },
          { template_id: 3, slide_index: 0, shapes: [{ name: 'Title 1', content: 'Chart again' }] },
          {
            template_id: 'harbour',
            type: 'layout',
            slide_index: 4,
            shapes: [{ name: 'Title 1', content: 'New slide on an imported layout' }],
          },
        ],
      },
    },
  }).bytes;
}

/** The part `type` (a relationship type's last segment) that `part`'s relationships point at, as a part name. */
function related(all: Map<string, string>, part: string, type: string): string {
  const rels = all.get(part.replace(/([^/]+)$/, '_rels/$1.rels')) ?? '';
  const target = new RegExp(`Type="[^"]*/${type}" Target="\\.\\./([^"]+)"`).exec(rels)?.[1];
  return target ? `ppt/${target}` : '';
}

describe('several templates in one deck', () => {
  // One deck for the three tests below; the first of them runs the package checks on it.
  let deck: Uint8Array;
  beforeAll(() => {
    deck = combined();
  });

  it('keeps every slide in payload order with its text and notes, and passes the package checks', async () => {
    const bytes = deck;
    const all = parts(bytes);
    const slides = slideParts(bytes);
    const texts = slides.map((part) => paragraphs(all.get(part) ?? '').join(' '));
    const expected = [
      'First from layouts',
      'Orange from harbour',
      'Chart from charts',
      'Blue from harbour',
      'Pictures from layouts',
      'Title slide from harbour',
      'Chart again',
      'New slide on an imported layout',
    ];
    expect(texts).toHaveLength(expected.length);
    expected.forEach((text, i) => expect(texts[i]).toContain(text));
    // The notes the payload gives an imported slide, and the notes page a slide of the deck's template has.
    const notes = slides.map((part) => paragraphs(all.get(related(all, part, 'notesSlide')) ?? '').join(' '));
    expect(notes[1]).toContain('Notes written on an imported slide');
    expect(notes[4]).toContain('Speaker notes of the headers and footers slide');
    await expectValidPptx(bytes, [LAYOUTS, HARBOUR, CHARTS]);
  });

  it("brings each slide's own master, layouts and theme, with ids unique across the presentation", () => {
    const all = parts(deck);
    const presentation = all.get('ppt/presentation.xml') ?? '';
    // The layouts template's master, the two masters of Harbour, the chart template's master.
    const masterIds = [...presentation.matchAll(/<p:sldMasterId id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(masterIds).toHaveLength(4);
    const layoutIds = [...all.entries()]
      .filter(([name]) => /^ppt\/slideMasters\/slideMaster\d+\.xml$/.test(name))
      .flatMap(([, xml]) => [...xml.matchAll(/<p:sldLayoutId id="(\d+)"/g)].map((m) => Number(m[1])));
    const ids = [...masterIds, ...layoutIds];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toBeGreaterThanOrEqual(2 ** 31);

    // Each slide's layout (by name), its master's theme (by name) and its master part.
    const looks = slideParts(deck).map((slide) => {
      const layout = related(all, slide, 'slideLayout');
      const master = related(all, layout, 'slideMaster');
      return {
        layout: /<p:cSld name="([^"]+)"/.exec(all.get(layout) ?? '')?.[1],
        theme: /<a:theme [^>]*name="([^"]+)"/.exec(all.get(related(all, master, 'theme')) ?? '')?.[1],
        master,
      };
    });
    expect(looks.map(({ layout, theme }) => [layout, theme])).toEqual([
      ['Title Slide', 'Layouts'],
      ['Title and Content', 'Harbour Orange'],
      ['Title and Content', 'Layouts'],
      ['Title and Content', 'Harbour Blue'],
      ['Title and Content', 'Layouts'],
      ['Title Slide', 'Harbour Orange'],
      ['Title and Content', 'Layouts'],
      ['Title and Content', 'Harbour Blue'],
    ]);
    // An imported slide points at an imported layout of its own template, not at the first deck's, even where
    // the two templates' masters look alike (the chart template is built on the layouts template's master).
    expect(looks[2]?.master).not.toBe(looks[0]?.master);
    expect(looks[4]?.master).toBe(looks[0]?.master);
    expect(looks[6]?.master).toBe(looks[2]?.master);
    expect(new Set(looks.map((look) => look.master)).size).toBe(4);
    // Charts are copied per clone, each with its own part.
    const charts = [...all.keys()].filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name));
    expect(charts).toHaveLength(2);
  });

  it('shows each filled string on the right page when rendered', async () => {
    // Line breaks in the PDF text follow the boxes' widths, not ours.
    const pages = (await renderToPdfText(deck)).map((page) => page.replace(/\s+/g, ' '));
    expect(pages).toHaveLength(8);
    expect(pages[0]).toContain('First from layouts');
    expect(pages[1]).toContain('Orange from harbour');
    expect(pages[2]).toContain('Chart from charts');
    expect(pages[3]).toContain('Blue from harbour');
    expect(pages[4]).toContain('Pictures from layouts');
    expect(pages[5]).toContain('Title slide from harbour');
    expect(pages[6]).toContain('Chart again');
    expect(pages[7]).toContain('New slide on an imported layout');
  }, 180_000);

  it('refuses templates whose slide sizes differ, naming both sizes', () => {
    const error = engineErrorOf(() =>
      generateFrom({ wide: WIDE, layouts: LAYOUTS }, [
        ['wide', 0],
        ['layouts', 0],
      ]),
    );
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toContain('presentation.slides[1].template_id');
    expect(error.message).toContain('12192000 × 6858000');
    expect(error.message).toContain('9144000 × 6858000');
    expect(error.message).toContain('different slide sizes cannot be combined');
  });

  it("adds the table styles another template's slides use to the deck's table style list", async () => {
    const tables = tableStyleDeck();
    const result = generateFrom({ harbour: HARBOUR, tables }, [
      ['harbour', 1],
      ['tables', 0],
    ]);
    // Harbour's list names no style; the table of the table style deck uses its own "Deckforge Ledger".
    expect(parts(HARBOUR).get('ppt/tableStyles.xml')).not.toContain('<a:tblStyle ');
    const all = parts(result.bytes);
    expect(all.get('ppt/tableStyles.xml')).toContain(
      `<a:tblStyle styleId="${LEDGER_STYLE_ID}" styleName="${LEDGER_STYLE_NAME}">`,
    );
    expect(all.get(slideParts(result.bytes)[1]!)).toContain(
      `<a:tableStyleId>${LEDGER_STYLE_ID}</a:tableStyleId>`,
    );
    await expectValidPptx(result.bytes, [HARBOUR, tables]);
  });

  it('gives the deck a table style list when its first template has none, so the style is not lost', async () => {
    const tables = tableStyleDeck();
    expect(parts(LAYOUTS).has('ppt/tableStyles.xml')).toBe(false);
    const result = generateFrom({ layouts: LAYOUTS, tables }, [
      ['layouts', 0],
      ['tables', 0],
    ]);
    const all = parts(result.bytes);
    expect(all.get('ppt/tableStyles.xml')).toContain(
      `<a:tblStyle styleId="${LEDGER_STYLE_ID}" styleName="${LEDGER_STYLE_NAME}">`,
    );
    expect(all.get('ppt/_rels/presentation.xml.rels')).toContain(
      'relationships/tableStyles" Target="tableStyles.xml"',
    );
    expect(all.get('[Content_Types].xml')).toContain(
      '<Override PartName="/ppt/tableStyles.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml"/>',
    );
    await expectValidPptx(result.bytes, [LAYOUTS, tables]);
  });

  itCorpus("also adds a built-in style PowerPoint wrote into a real deck's list (corpus decks)", async () => {
    const layouts = readCorpus('poi/layouts.pptx');
    const tables = readCorpus('Open-XML-SDK/Table_Large.pptx');
    const result = generateFrom({ layouts, tables }, [
      ['layouts', 0],
      ['tables', 0],
    ]);
    // layouts.pptx lists no style; the table of Table_Large.pptx uses "Medium Style 2 - Accent 1".
    expect(parts(layouts).get('ppt/tableStyles.xml')).not.toContain('<a:tblStyle ');
    expect(parts(result.bytes).get('ppt/tableStyles.xml')).toContain(
      '<a:tblStyle styleId="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}" styleName="Medium Style 2 - Accent 1">',
    );
    await expectValidPptx(result.bytes, [layouts, tables]);
  });

  it('treats two list entries with the same bytes as one template', async () => {
    const result = generateFrom({ a: LAYOUTS, b: LAYOUTS }, [
      ['a', 0],
      ['b', 0],
    ]);
    const presentation = parts(result.bytes).get('ppt/presentation.xml') ?? '';
    expect([...presentation.matchAll(/<p:sldMasterId /g)]).toHaveLength(1);
    await expectValidPptx(result.bytes, LAYOUTS);
  });

  it('checks each slide against its own template, also where two templates have a part of the same name', () => {
    // Both templates hold /ppt/slides/slide1.xml: Layouts' has "Title 1", Harbour's "Headline".
    const result = generate({
      files,
      payload: {
        presentation: {
          shape_validation_mode: 'strict',
          template_list: TEMPLATE_LIST,
          slides: [
            { template_id: 1, slide_index: 0, shapes: [{ name: 'Title 1', content: 'From layouts' }] },
            {
              template_id: 'harbour',
              slide_index: 0,
              shapes: [{ name: 'Headline', content: 'From harbour' }],
            },
          ],
        },
      },
    });
    expect(paragraphs(parts(result.bytes).get(slideParts(result.bytes)[1] ?? '') ?? '')).toContain(
      'From harbour',
    );
  });

  describe('embedded fonts', () => {
    // No template here embeds a font (nor does any corpus deck): these add one (p:embeddedFontLst, its relationship and font part).
    const FONT_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/font';
    const FONT_BYTES = Uint8Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) & 0xff);
    const embedding = (deck: Uint8Array, typeface: string): Uint8Array =>
      editPackage(deck, (files) => {
        const edit = (item: string, change: (xml: string) => string): void => {
          files[item] = strToU8(change(strFromU8(files[item]!)));
        };
        files['ppt/fonts/font1.fntdata'] = FONT_BYTES;
        edit('[Content_Types].xml', (xml) =>
          xml.replace(
            '<Default ',
            '<Default Extension="fntdata" ContentType="application/x-fontdata"/><Default ',
          ),
        );
        edit('ppt/_rels/presentation.xml.rels', (xml) =>
          xml.replace(
            '</Relationships>',
            `<Relationship Id="rIdFont1" Type="${FONT_REL}" Target="fonts/font1.fntdata"/></Relationships>`,
          ),
        );
        edit('ppt/presentation.xml', (xml) =>
          xml.replace(
            /(<p:notesSz [^>]*\/>)/,
            `$1<p:embeddedFontLst><p:embeddedFont><p:font typeface="${typeface}"/><p:regular r:id="rIdFont1"/></p:embeddedFont></p:embeddedFontLst>`,
          ),
        );
      });

    /** The typefaces of the output's embedded fonts, each with the bytes of its regular face's part. */
    function embeddedFonts(bytes: Uint8Array): Map<string, Uint8Array | undefined> {
      const files = unzipSync(bytes);
      const presentation = strFromU8(files['ppt/presentation.xml']!);
      const rels = strFromU8(files['ppt/_rels/presentation.xml.rels']!);
      const fonts = new Map<string, Uint8Array | undefined>();
      for (const [, typeface, id] of presentation.matchAll(
        /<p:font typeface="([^"]+)"[^>]*\/><p:regular r:id="([^"]+)"\/>/g,
      )) {
        const target = new RegExp(`Id="${id}"[^>]*Target="([^"]+)"`).exec(rels)?.[1];
        fonts.set(typeface!, target ? files[`ppt/${target}`] : undefined);
      }
      return fonts;
    }

    it("brings another template's embedded font with its font part", async () => {
      const guest = embedding(LINKED, 'Deckforge Sans');
      const result = generateFrom({ host: LAYOUTS, guest }, [
        ['host', 0],
        ['guest', 1],
      ]);
      expect(embeddedFonts(result.bytes)).toEqual(new Map([['Deckforge Sans', FONT_BYTES]]));
      await expectValidPptx(result.bytes, [LAYOUTS, guest]);
    });

    it("keeps one entry per typeface: the deck template's own", async () => {
      const host = embedding(LAYOUTS, 'Deckforge Sans');
      const guest = embedding(LINKED, 'Deckforge Sans');
      const result = generateFrom({ host, guest }, [
        ['host', 0],
        ['guest', 1],
      ]);
      const fonts = embeddedFonts(result.bytes);
      expect([...fonts.keys()]).toEqual(['Deckforge Sans']);
      expect(fonts.get('Deckforge Sans')).toEqual(FONT_BYTES);
      await expectValidPptx(result.bytes, [host, guest]);
    });
  });

  it('keeps a link between two slides of another template, also when it points forward', async () => {
    // LINKED: slide 0 links to slide 1. Here both come after a slide of the deck's template, the linking slide
    // first.
    const result = generateFrom({ host: LAYOUTS, linked: LINKED }, [
      ['host', 0],
      ['linked', 0],
      ['linked', 1],
    ]);
    expect(result.warnings.filter((w) => /link/.test(w.message))).toEqual([]);
    const all = parts(result.bytes);
    const [, source, target] = slideParts(result.bytes);
    const rels = all.get(source!.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels'))!;
    expect(rels).toContain(`relationships/slide" Target="${target!.split('/').pop()}"`);
    await expectValidPptx(result.bytes, [LAYOUTS, LINKED]);
  });
});

/**
 * Every valid corpus deck as the second template of a deck built on another corpus deck of the same slide
 * size: a slide of the host, the guest's slides (all of them for decks of up to GUEST_SLIDES slides, else that
 * many spread over the deck, first and last included), the host's slide again. The output may repeat what
 * either template already gets wrong, and nothing else. The sample keeps the validator's run short on the
 * corpus's 40-slide decks, whose slides share masters and layouts with the ones taken.
 */
const GUEST_SLIDES = 6;
describeCorpus('corpus decks combined', () => {
  const usable = corpusFiles().filter((d) => !d.strict && d.slides > 0);
  const sizeOf = new Map(
    usable.map((d) => {
      const size = inspect(readCorpus(d)).slideSize;
      return [d.file, size ? `${size.cx}x${size.cy}` : 'none'] as const;
    }),
  );
  // Each deck's host: the next deck of the same size (in manifest order, wrapping round).
  const pairs = usable.flatMap((guest) => {
    const sameSize = usable.filter((d) => sizeOf.get(d.file) === sizeOf.get(guest.file));
    const host = sameSize[(sameSize.indexOf(guest) + 1) % sameSize.length];
    return host && host !== guest ? [[guest.file, host.file] as const] : [];
  });

  it('pairs most of the corpus', () => {
    expect(pairs.length).toBeGreaterThan(usable.length * 0.8);
  });

  it.each(pairs)(
    '%s as the second template of %s',
    async (guestFile, hostFile) => {
      const guest = readCorpus(guestFile);
      const host = readCorpus(hostFile);
      const guestSlides = spread(
        inspect(guest).slides.map((s) => s.index),
        GUEST_SLIDES,
      );
      const result = generateFrom({ host, guest }, [
        ['host', 0],
        ...guestSlides.map((index) => ['guest', index] as const),
        ['host', 0],
      ]);
      const after = inspect(result.bytes);
      expect(after.slides).toHaveLength(guestSlides.length + 2);
      const guestBefore = inspect(guest).slides;
      guestSlides.forEach((index, i) => {
        expect(
          after.slides[i + 1]?.shapes.map((s) => s.name),
          `output slide ${i + 1} is guest slide ${index}`,
        ).toEqual(guestBefore[index]?.shapes.map((s) => s.name));
      });
      await expectValidPptx(result.bytes, [host, guest]);
    },
    600_000,
  );
});

/**
 * Slides from several templates in one deck (payload.md `template_list`, ooxml-notes §12): each slide keeps
 * its own template's master, layouts and theme, the deck stays valid, and templates that cannot share a
 * presentation (different slide sizes) are refused with a message saying why.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult } from '../../src/engine/index.js';
import { corpusFiles, describeCorpus, readCorpus } from '../support/corpus.js';
import { engineErrorOf } from '../support/engine-error.js';
import { editPackage } from '../support/package-edit.js';
import { expectValidPptx } from '../support/expect-valid-pptx.js';
import { renderToPdfText } from '../support/render.js';
import { paragraphs, parts, slideParts } from './deck.js';

const NOTES = readCorpus('pptx-automizer/SlideWithNotes.pptx');
const MASTERS = readCorpus('pptx-automizer/SlideMasters.pptx');
const CHARTS = readCorpus('markitdown/test.pptx');
const FOUR_BY_THREE = readCorpus('poi/layouts.pptx');
const LINKED = readCorpus('pptx-automizer/SlideWithLink.pptx');

const files = new Map([
  ['notes.pptx', NOTES],
  ['masters.pptx', MASTERS],
  ['charts.pptx', CHARTS],
]);

const TEMPLATE_LIST = [
  { template_id: 1, template: 'notes.pptx' },
  { template_id: 'masters', template: 'masters.pptx' },
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
          { template_id: 1, slide_index: 0, shapes: [{ name: 'Cloud', content: 'First from notes' }] },
          {
            template_id: 'masters',
            slide_index: 1,
            shapes: [{ name: 'Titel 2', content: 'Orange from masters' }],
            notes: 'Notes written on an imported slide',
          },
          { template_id: 3, slide_index: 3, shapes: [{ name: 'タイトル 1', content: 'Chart from charts' }] },
          {
            template_id: 'masters',
            slide_index: 2,
            shapes: [{ name: 'Titel 2', content: 'Blue from masters' }],
          },
          { template_id: 1, slide_index: 0, shapes: [{ name: 'Cloud', content: 'Second from notes' }] },
          { template_id: 3, slide_index: 1, shapes: [{ name: 'Title 1', content: 'Picture from charts' }] },
          { template_id: 3, slide_index: 3, shapes: [{ name: 'タイトル 1', content: 'Chart again' }] },
          {
            template_id: 'masters',
            type: 'layout',
            slide_index: 4,
            shapes: [{ name: 'Titel 1', content: 'New slide on an imported layout' }],
          },
        ],
      },
    },
  }).bytes;
}

describeCorpus('several templates in one deck', () => {
  // One deck for the three tests below; the first of them runs the package checks on it.
  let deck: Uint8Array;
  beforeAll(() => {
    deck = combined();
  });

  it('keeps every slide in payload order with its text, and passes the package checks', async () => {
    const bytes = deck;
    const all = parts(bytes);
    const texts = slideParts(bytes).map((part) => paragraphs(all.get(part) ?? '').join(' '));
    const expected = [
      'First from notes',
      'Orange from masters',
      'Chart from charts',
      'Blue from masters',
      'Second from notes',
      'Picture from charts',
      'Chart again',
      'New slide on an imported layout',
    ];
    expect(texts).toHaveLength(expected.length);
    expected.forEach((text, i) => expect(texts[i]).toContain(text));
    await expectValidPptx(bytes, [NOTES, MASTERS, CHARTS]);
  });

  it("brings each slide's own master, layouts and theme, with ids unique across the presentation", () => {
    const all = parts(deck);
    const presentation = all.get('ppt/presentation.xml') ?? '';
    // The notes deck's master, the two masters of the masters deck, the charts deck's master.
    const masterIds = [...presentation.matchAll(/<p:sldMasterId id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(masterIds).toHaveLength(4);
    const layoutIds = [...all.entries()]
      .filter(([name]) => /^ppt\/slideMasters\/slideMaster\d+\.xml$/.test(name))
      .flatMap(([, xml]) => [...xml.matchAll(/<p:sldLayoutId id="(\d+)"/g)].map((m) => Number(m[1])));
    const ids = [...masterIds, ...layoutIds];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toBeGreaterThanOrEqual(2 ** 31);

    // An imported slide points at an imported layout of its own template's look, not at the first deck's.
    const chartSlide = slideParts(deck)[2] ?? '';
    const rels = all.get(chartSlide.replace('slides/', 'slides/_rels/') + '.rels') ?? '';
    const layout = /Target="\.\.\/slideLayouts\/(slideLayout\d+\.xml)"/.exec(rels)?.[1] ?? '';
    expect(all.get(`ppt/slideLayouts/${layout}`)).toContain('name="Title and Content"');
    // Charts are copied per clone, each with its own part.
    const charts = [...all.keys()].filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name));
    expect(charts).toHaveLength(2);
  });

  it('shows each filled string on the right page when rendered', async () => {
    // Line breaks in the PDF text follow the boxes' widths, not ours.
    const pages = (await renderToPdfText(deck)).map((page) => page.replace(/\s+/g, ' '));
    expect(pages).toHaveLength(8);
    // On the notes deck's slide, the text of an overlapping arrow shape lands inside ours in the PDF text.
    expect(pages[0]).toMatch(/First .*from .*notes/);
    expect(pages[1]).toContain('Orange from masters');
    expect(pages[2]).toContain('Chart from charts');
    expect(pages[3]).toContain('Blue from masters');
    expect(pages[4]).toMatch(/Second .*from .*notes/);
    expect(pages[5]).toContain('Picture from charts');
    expect(pages[6]).toContain('Chart again');
    expect(pages[7]).toContain('New slide on an imported layout');
  }, 180_000);

  it('refuses templates whose slide sizes differ, naming both sizes', () => {
    const error = engineErrorOf(() =>
      generateFrom({ notes: NOTES, layouts: FOUR_BY_THREE }, [
        ['notes', 0],
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
    const tables = readCorpus('Open-XML-SDK/Table_Large.pptx');
    const result = generateFrom({ layouts: FOUR_BY_THREE, tables }, [
      ['layouts', 0],
      ['tables', 0],
    ]);
    // layouts.pptx lists no style; the table of Table_Large.pptx uses "Medium Style 2 - Accent 1".
    expect(parts(FOUR_BY_THREE).get('ppt/tableStyles.xml')).not.toContain('<a:tblStyle ');
    expect(parts(result.bytes).get('ppt/tableStyles.xml')).toContain(
      '<a:tblStyle styleId="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}" styleName="Medium Style 2 - Accent 1">',
    );
    await expectValidPptx(result.bytes, [FOUR_BY_THREE, tables]);
  });

  it('treats two list entries with the same bytes as one template', async () => {
    const result = generateFrom({ a: NOTES, b: NOTES }, [
      ['a', 0],
      ['b', 0],
    ]);
    const presentation = parts(result.bytes).get('ppt/presentation.xml') ?? '';
    expect([...presentation.matchAll(/<p:sldMasterId /g)]).toHaveLength(1);
    await expectValidPptx(result.bytes, NOTES);
  });

  describe('embedded fonts', () => {
    // No corpus deck embeds a font: these add one (p:embeddedFontLst, its relationship and font part).
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
      const result = generateFrom({ host: NOTES, guest }, [
        ['host', 0],
        ['guest', 1],
      ]);
      expect(embeddedFonts(result.bytes)).toEqual(new Map([['Deckforge Sans', FONT_BYTES]]));
      await expectValidPptx(result.bytes, [NOTES, guest]);
    });

    it("keeps one entry per typeface: the deck template's own", async () => {
      const host = embedding(NOTES, 'Deckforge Sans');
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
    // SlideWithLink.pptx: slide 0 links to slide 1. Here both come after a slide of the deck's template,
    // the linking slide first.
    const result = generateFrom({ host: NOTES, linked: LINKED }, [
      ['host', 0],
      ['linked', 0],
      ['linked', 1],
    ]);
    expect(result.warnings.filter((w) => /link/.test(w.message))).toEqual([]);
    const all = parts(result.bytes);
    const [, source, target] = slideParts(result.bytes);
    const rels = all.get(source!.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels'))!;
    expect(rels).toContain(`relationships/slide" Target="${target!.split('/').pop()}"`);
    await expectValidPptx(result.bytes, [NOTES, LINKED]);
  });
});

/**
 * Every valid corpus deck as the second template of a deck built on another corpus deck of the same slide
 * size: a slide of the host, every slide of the guest, the host's slide again. The output may repeat what
 * either template already gets wrong, and nothing else.
 */
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
      const guestSlides = inspect(guest).slides.map((s) => s.index);
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

/**
 * Theme from data (docs/payload.md "Brand"; docs/powerpoint-rules.md "Theme colours and fonts"): the payload's
 * colour slots and fonts change the theme part of each slide master, and nothing else of the deck, so every
 * shape, chart series and table style that refers to the theme follows. Checked on the parts, with the package
 * checks and the validator, and by rendering: on the owned report template the title, the table header and the
 * chart's first series take the new colour and no pixel outside them changes; on real corpus decks the old
 * accent colour gives way to the new one and nothing moves.
 */
import { strFromU8, unzipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, inspect, parsePayload, type GenerateResult } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { describeCorpus, itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { harbourTemplate } from '../../support/decks/harbour-template.js';
import {
  changedOutside,
  countNear,
  hexColour,
  near,
  pagePixels,
  type Page,
} from '../../support/readers/page-pixels.js';
import { renderToPngs } from '../../support/readers/render.js';

/** The warnings of a run but for the sample's own {{tags}}, which these payloads leave unfilled on purpose. */
function brandWarnings(result: GenerateResult): GenerateResult['warnings'] {
  return result.warnings.filter((warning) => warning.code !== 'TAG_UNFILLED');
}

const REPORT = new Uint8Array(readFileSync(new URL('../../../examples/report.pptx', import.meta.url)));
const SAMPLE = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);

function run(template: Uint8Array, presentation: Record<string, unknown>): GenerateResult {
  return generate({
    files: new Map([['template.pptx', template]]),
    payload: { presentation: { template: 'template.pptx', ...presentation } },
  });
}

function partsOf(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

/** A theme slot's colour as the theme part writes it (`srgbClr`, or a system colour's `lastClr`). */
function slotColour(theme: string, slot: string): string {
  const inner = new RegExp(`<a:${slot}>(.*?)</a:${slot}>`).exec(theme)?.[1] ?? '';
  return (
    /(?:val|lastClr)="([0-9A-Fa-f]{6})"/.exec(inner.replace(/val="windowText"|val="window"/, ''))?.[1] ?? ''
  );
}

/** The theme part the deck's notes master uses, as a zip entry name. */
function notesMasterTheme(parts: Record<string, string>): string {
  const master =
    Object.keys(parts).find((name) => /^ppt\/notesMasters\/notesMaster\d+\.xml$/.test(name)) ?? '';
  const rels = parts[master.replace(/([^/]+)$/, '_rels/$1.rels')] ?? '';
  const target = /Type="[^"]*\/theme" Target="\.\.\/theme\/([^"]+)"/.exec(rels)?.[1];
  return target === undefined ? '' : `ppt/theme/${target}`;
}

describe('theme colours and fonts from the payload', () => {
  it("changes the colour slots and fonts in each master's theme part and leaves every other part as it was", async () => {
    const result = run(SAMPLE, {
      theme: {
        colors: {
          accent1: '#FF6600',
          Accent2: 'RGB(0,128,64)',
          dk2: '10,20,30',
          FOLHLINK: 'teal',
          lt2: 'F0F0F0',
        },
        fonts: {
          major: 'Liberation Serif',
          minor: { latin: 'Carlito', ea: 'Noto Sans CJK JP', cs: 'Noto Sans Arabic' },
        },
      },
      slides: [{ slide_index: 0 }, { slide_index: 1 }, { slide_index: 2 }],
    });
    expect(brandWarnings(result)).toEqual([]);
    await expectValidPptx(result.bytes, SAMPLE);
    const before = partsOf(SAMPLE);
    const after = partsOf(result.bytes);
    const theme = after['ppt/theme/theme1.xml'] ?? '';
    expect(theme).toContain('<a:accent1><a:srgbClr val="FF6600"/></a:accent1>');
    expect(theme).toContain('<a:accent2><a:srgbClr val="008040"/></a:accent2>');
    expect(theme).toContain('<a:dk2><a:srgbClr val="0A141E"/></a:dk2>');
    expect(theme).toContain('<a:lt2><a:srgbClr val="F0F0F0"/></a:lt2>');
    expect(theme).toContain('<a:folHlink><a:srgbClr val="008080"/></a:folHlink>');
    // The slots not named keep the template's colours.
    for (const slot of ['dk1', 'lt1', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink'])
      expect(slotColour(theme, slot)).toBe(slotColour(before['ppt/theme/theme1.xml'] ?? '', slot));
    expect(theme).toMatch(/<a:majorFont><a:latin typeface="Liberation Serif"\/><a:ea typeface=""\/>/);
    expect(theme).toMatch(
      /<a:minorFont><a:latin typeface="Carlito"\/><a:ea typeface="Noto Sans CJK JP"\/><a:cs typeface="Noto Sans Arabic"\/>/,
    );
    // Never a per-shape rewrite: every slide, layout and master is byte for byte the template's.
    const pages = Object.keys(after).filter((name) =>
      /^ppt\/(slides|slideLayouts|slideMasters)\//.test(name),
    );
    expect(pages.length).toBeGreaterThan(6);
    for (const name of pages) expect(after[name], name).toBe(before[name]);
  });

  it('changes the theme of every master of a template (Harbour has two themes)', async () => {
    const harbour = harbourTemplate('4:3');
    const result = run(harbour, {
      theme: { colors: { accent1: '#00AA55' } },
      slides: [{ slide_index: 1 }, { slide_index: 2 }],
    });
    await expectValidPptx(result.bytes, harbour);
    const after = partsOf(result.bytes);
    for (const theme of ['ppt/theme/theme1.xml', 'ppt/theme/theme2.xml'])
      expect(after[theme]).toContain('<a:accent1><a:srgbClr val="00AA55"/></a:accent1>');
  });

  it("changes the theme of the notes master made for a deck whose template has none, as the slide master's", async () => {
    const result = run(SAMPLE, {
      theme: { colors: { accent1: '#FF6600' } },
      slides: [{ slide_index: 0, notes: 'Mention the new office' }],
    });
    await expectValidPptx(result.bytes, SAMPLE);
    const after = partsOf(result.bytes);
    const theme = notesMasterTheme(after);
    expect(theme).not.toBe('ppt/theme/theme1.xml');
    expect(slotColour(after[theme] ?? '', 'accent1')).toBe('FF6600');
  });

  itCorpus(
    "changes the theme of the template's own notes master, so that notes pages take the brand",
    async () => {
      const template = readCorpus('pptx-automizer/SlideWithNotes.pptx');
      const result = run(template, {
        theme: { colors: { accent1: '#FF6600' } },
        slides: [{ slide_index: 0 }],
      });
      await expectValidPptx(result.bytes, template);
      const before = partsOf(template);
      const after = partsOf(result.bytes);
      const theme = notesMasterTheme(after);
      expect(theme).toBe(notesMasterTheme(before));
      expect(slotColour(before[theme] ?? '', 'accent1')).not.toBe('FF6600');
      expect(slotColour(after[theme] ?? '', 'accent1')).toBe('FF6600');
    },
  );

  it('changes the templates of a template_list by presentation.theme and by their own entries, slot by slot', async () => {
    const harbour = harbourTemplate('4:3');
    const result = generate({
      files: new Map([
        ['first.pptx', harbourTemplate('4:3')],
        ['harbour.pptx', harbour],
      ]),
      payload: {
        presentation: {
          theme: { colors: { accent1: '#111111', accent2: '#222222' } },
          template_list: [
            { template_id: 'a', template: 'first.pptx' },
            { template_id: 'b', template: 'harbour.pptx', theme: { colors: { accent2: '#BBBBBB' } } },
          ],
          slides: [
            { template_id: 'a', slide_index: 1 },
            { template_id: 'b', slide_index: 1 },
          ],
        },
      },
    });
    await expectValidPptx(result.bytes, [harbour, harbour]);
    const themes = Object.entries(partsOf(result.bytes)).filter(([name]) =>
      /^ppt\/theme\/theme\d+\.xml$/.test(name),
    );
    // The deck template's two themes, and the copy of the orange theme the second entry's slide brings.
    expect(themes).toHaveLength(3);
    const accents = themes.map(([, xml]) =>
      [slotColour(xml, 'accent1'), slotColour(xml, 'accent2')].join(' '),
    );
    expect(accents.sort()).toEqual(['111111 222222', '111111 222222', '111111 BBBBBB']);
  });

  it('refuses a slot a theme does not have, a colour that does not parse and a font that is no name, naming each field', () => {
    const error = engineErrorOf(() =>
      parsePayload({
        presentation: {
          template: 't.pptx',
          theme: {
            colors: { accent7: '#FF0000', accent1: '#GG0000', tx1: 'black' },
            fonts: { major: '+mj-lt', minor: { greek: 'Arial' } },
          },
          slides: [{ slide_index: 0 }],
        },
      }),
    );
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toContain(
      'presentation.theme.colors.accent7: a theme has no colour slot "accent7" (did you mean "accent1"?); its slots are dk1, lt1, dk2, lt2, accent1, accent2, accent3, accent4, accent5, accent6, hlink, folHlink',
    );
    expect(error.message).toContain(
      'presentation.theme.colors.accent1: expected a colour (#RRGGBB, RRGGBB, RGB(r,g,b), r,g,b or a CSS colour name), got "#GG0000"',
    );
    expect(error.message).toContain('presentation.theme.colors.tx1: a theme has no colour slot "tx1"');
    expect(error.message).toContain(
      'presentation.theme.fonts.major: expected a font family name, got "+mj-lt"',
    );
    expect(error.message).toContain(
      'presentation.theme.fonts.minor: expected latin, ea or cs, got none of them',
    );
    const empty = engineErrorOf(() =>
      parsePayload({ presentation: { template: 't.pptx', theme: {}, slides: [{ slide_index: 0 }] } }),
    );
    expect(empty.message).toBe('presentation.theme: expected colors or fonts, got none of them');
  });

  describe('rendered: the report template', () => {
    const NEW = hexColour('FF6600');
    const OLD = hexColour('2F6FDE'); // report.pptx's accent1
    let base: Page[] = [];
    let brand: Page[] = [];
    let deck: GenerateResult;
    beforeAll(async () => {
      const slides = [{ slide_index: 0 }, { slide_index: 1 }];
      deck = run(REPORT, { theme: { colors: { accent1: '#FF6600' } }, slides });
      [base = [], brand = []] = await Promise.all(
        [run(REPORT, { slides }).bytes, deck.bytes].map(async (bytes) =>
          Promise.all((await renderToPngs(bytes, 40)).map(pagePixels)),
        ),
      );
    });

    it('draws the title, the table header and the first chart series in the new accent, and nothing outside them changes', async () => {
      await expectValidPptx(deck.bytes, REPORT);
      const info = inspect(REPORT);
      const cx = info.slideSize?.cx ?? 12_192_000;
      info.slides.slice(0, 2).forEach((slide, i) => {
        const before = base[i] as Page;
        const after = brand[i] as Page;
        const oldPixels = countNear(before, OLD, cx);
        // The accent was there (title, header row, first series) and now is the new colour, about as much of it.
        expect(oldPixels, `slide ${i}: accent-coloured pixels in the template`).toBeGreaterThan(500);
        expect(countNear(after, OLD, cx), `slide ${i}: old accent left`).toBe(0);
        expect(countNear(after, NEW, cx) / oldPixels).toBeGreaterThan(0.9);
        expect(countNear(after, NEW, cx) / oldPixels).toBeLessThan(1.1);
        // Outside the shapes that use the theme's accent (the title, the table, the chart), not one pixel moved.
        const themed = slide.shapes
          .filter((s) => s.kind !== 'text' || s.name === 'Title 1')
          .map((s) => s.box!);
        expect(themed.length).toBeGreaterThanOrEqual(2);
        expect(changedOutside(before, after, cx, themed), `slide ${i}: pixels changed elsewhere`).toBe(0);
      });
    });
  });

  describeCorpus('rendered: real decks', () => {
    /** Colours no Office theme uses, for each accent slot. */
    const BRAND = {
      accent1: 'E6007E',
      accent2: '00B050',
      accent3: '7030A0',
      accent4: '00B0F0',
      accent5: 'C00000',
      accent6: '3B3B00',
    };
    const DECKS = [
      // Shapes, a table in a style, a chart and icons, all on one slide.
      'pptx-automizer/ShapeTypesCollection.pptx',
      // A stacked bar chart whose series take the accents.
      'pptx-automizer/ChartBarsStacked.pptx',
      // Tables in the built-in accent styles: header rows and banded rows.
      'pptx-automizer/SlideWithTables.pptx',
      // A table whose header row takes accent 1 from the table style, from Mac PowerPoint.
      'poi/table-with-theme.pptx',
    ];

    for (const file of DECKS) {
      itCorpus(`${file}: the old accent colours give way to the new ones and nothing moves`, async () => {
        const template = readCorpus(file);
        const count = Math.min(inspect(template).slides.length, 2);
        const slides = Array.from({ length: count }, (_, i) => ({ slide_index: i }));
        const branded = run(template, {
          theme: { colors: Object.fromEntries(Object.entries(BRAND).map(([k, v]) => [k, `#${v}`])) },
          slides,
        });
        await expectValidPptx(branded.bytes, template);
        const theme = partsOf(template)['ppt/theme/theme1.xml'] ?? '';
        const old = hexColour(slotColour(theme, 'accent1'));
        const cx = inspect(template).slideSize?.cx ?? 9_144_000;
        const [before = [], after = []] = await Promise.all(
          [run(template, { slides }).bytes, branded.bytes].map(async (bytes) =>
            Promise.all((await renderToPngs(bytes, 40)).map(pagePixels)),
          ),
        );
        expect(after).toHaveLength(before.length);
        let oldSeen = 0;
        before.forEach((page, i) => {
          const brandPage = after[i] as Page;
          const oldHere = countNear(page, old, cx, undefined, 12);
          oldSeen += oldHere;
          // Where accent 1 was, the new accent 1 is; none of the old is left.
          if (oldHere > 50) {
            expect(countNear(brandPage, old, cx, undefined, 12), `page ${i}: old accent 1 left`).toBeLessThan(
              oldHere / 20,
            );
            expect(countNear(brandPage, hexColour(BRAND.accent1), cx, undefined, 12)).toBeGreaterThan(
              oldHere / 2,
            );
          }
          // Nothing moved: the same pixels are ink (not page background) in both renders.
          expect(
            inkDifference(page, brandPage),
            `page ${i}: pixels that became or stopped being ink`,
          ).toBeLessThan(0.003);
        });
        expect(oldSeen, 'the deck shows its accent 1 somewhere').toBeGreaterThan(200);
      });
    }
  });
});

/** Share of pixels that are page background (near white) in one render and not in the other. */
function inkDifference(a: Page, b: Page): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  const white = { r: 255, g: 255, b: 255 };
  let differ = 0;
  for (let at = 0; at < a.data.length; at += a.channels) {
    const inkA = !near({ r: a.data[at] ?? 0, g: a.data[at + 1] ?? 0, b: a.data[at + 2] ?? 0 }, white, 6);
    const inkB = !near({ r: b.data[at] ?? 0, g: b.data[at + 1] ?? 0, b: b.data[at + 2] ?? 0 }, white, 6);
    if (inkA !== inkB) differ++;
  }
  return differ / (a.width * a.height);
}

/**
 * What a person sees: LibreOffice draws a filled chart with the new labels, values and title (it draws from the
 * caches, as PowerPoint does), and a chart nobody filled exactly as the template's; a value axis shows the format
 * of the values (docs/powerpoint-rules.md, "Axis formats linked to the data"). One render per deck.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/engine/index.js';
import { chartDeck } from '../../support/decks/chart-templates.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { renderToPdfText } from '../../support/readers/render.js';

const TIMEOUT = 180_000;

describe('chart rendering', () => {
  it(
    'a filled chart shows its categories, series, values and title; an unfilled one looks as in the template',
    async () => {
      const template = chartDeck();
      const result = generate({
        files: new Map([['t.pptx', template]]),
        payload: {
          presentation: {
            template: 't.pptx',
            slides: [
              {
                slide_index: 0,
                shapes: [
                  {
                    name: 'Chart 5',
                    content: {
                      categories: ['Alpha', 'Bravo', 'Charlie'],
                      series: [
                        { name: 'Northwind', values: [12, 47, 33] },
                        { name: 'Southfield', values: [21, 8, 39] },
                      ],
                      overlays: [['', 'peak']],
                    },
                    settings: { title: 'Quarterly widgets', isChartLabelValueVisible: true },
                  },
                ],
              },
              { slide_index: 0 },
            ],
          },
        },
      });
      await expectValidPptx(result.bytes, template);
      const [pages, templatePages] = await Promise.all([
        renderToPdfText(result.bytes),
        renderToPdfText(template),
      ]);
      expect(pages).toHaveLength(2);
      const filled = pages[0] ?? '';
      for (const text of [
        'Alpha',
        'Bravo',
        'Charlie',
        'Northwind',
        'Southfield',
        'Quarterly widgets',
        '47',
        '39',
      ])
        expect(filled).toContain(text);
      expect(filled).toMatch(/47 peak/);
      expect(filled).not.toContain('Category 1');
      expect(filled).not.toContain('Series 3');
      expect(pages[1]).toBe(templatePages[0]);
    },
    TIMEOUT,
  );

  it(
    'typed percentages and number_format draw the value axis and the labels in that format, in LibreOffice too',
    async () => {
      const template = chartDeck();
      const typed = (number: number) => ({ number, format: '0.0%' });
      const chart = (values: unknown[], settings: object) => ({
        slide_index: 0,
        shapes: [
          {
            name: 'Chart 5',
            content: { categories: ['Alpha', 'Bravo', 'Charlie'], series: [{ name: 'Share', values }] },
            settings: { isChartLabelValueVisible: true, ...settings },
          },
        ],
      });
      const result = generate({
        files: new Map([['t.pptx', template]]),
        payload: {
          presentation: {
            template: 't.pptx',
            slides: [
              chart([typed(0.1), typed(0.35), typed(0.6)], {}),
              chart([0.1, 0.35, 0.6], { number_format: '0%' }),
            ],
          },
        },
      });
      expect(result.warnings).toEqual([]);
      await expectValidPptx(result.bytes, template);
      // What PowerPoint reads: the axis stays linked to its data, whose format the axis now also names.
      const charts = chartParts(result.bytes);
      expect(valueAxisFormat(charts[0]!)).toEqual({ formatCode: '0.0%', sourceLinked: '1' });
      expect(valueAxisFormat(charts[1]!)).toEqual({ formatCode: '0%', sourceLinked: '0' });
      // What LibreOffice draws (the PDF; the PNG previews are drawn from it): axis ticks 0 … 70 % and the labels.
      const [typedPage, formattedPage] = (await renderToPdfText(result.bytes)).map((p) => p.split(/\s+/));
      for (const label of ['0.0%', '20.0%', '70.0%', '10.0%', '35.0%', '60.0%'])
        expect(typedPage).toContain(label);
      for (const label of ['0%', '20%', '70%', '35%']) expect(formattedPage).toContain(label);
      for (const page of [typedPage, formattedPage]) {
        expect(page).not.toContain('0.7');
        expect(page).not.toContain('0.35');
      }
    },
    TIMEOUT,
  );
});

function chartParts(deck: Uint8Array): string[] {
  const files = unzipSync(deck);
  return Object.keys(files)
    .filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name))
    .sort()
    .map((name) => strFromU8(files[name]!));
}

function valueAxisFormat(chartXml: string): Record<string, string> {
  const axis = /<c:valAx>[\s\S]*?<\/c:valAx>/.exec(chartXml)?.[0] ?? '';
  const numFmt = /<c:numFmt ([^>]*)\/>/.exec(axis)?.[1] ?? '';
  return Object.fromEntries([...numFmt.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k!, v!]));
}

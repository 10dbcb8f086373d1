/**
 * What a person sees: LibreOffice draws a filled chart with the new labels, values and title (it draws from the
 * caches, as PowerPoint does), and a chart nobody filled exactly as the template's. One render per deck.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/engine/index.js';
import { chartDeck } from '../support/decks/chart-templates.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { renderToPdfText } from '../support/readers/render.js';

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
});

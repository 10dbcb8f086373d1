/**
 * Accessible output (docs/payload.md, Accessibility): alt_text and alt_title on every kind, and the report of
 * what screen readers miss in the output, as warnings with codes or as one refusal.
 */
import { describe, expect, it } from 'vitest';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { accessibilityDeck, undescribedPicturesDeck } from '../../support/decks/accessibility-deck.js';
import { parts, run, slideParts } from '../../support/decks/deck.js';

const TEMPLATE = accessibilityDeck();

/** p:cNvPr of the shape named `name` in a slide part: its attributes. */
function nonVisual(xml: string, name: string): Record<string, string> {
  const tag = new RegExp(`<p:cNvPr [^>]*name="${name}"[^>]*>`).exec(xml)?.[0];
  if (!tag) throw new Error(`no shape named ${name}`);
  return Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('alt_text and alt_title', () => {
  it('set the description and title of a table, a group, a picture in it and a text box', async () => {
    const described = (name: string, text: string): Record<string, string> => ({
      name,
      alt_text: text,
      alt_title: `${text} (title)`,
    });
    const result = run(TEMPLATE, {
      slides: [
        {
          slide_index: 0,
          shapes: [
            described('Table 1', 'Sales per region'),
            described('Group 1', 'Logo block'),
            described('Picture 1', 'A red square'),
          ],
        },
        { slide_index: 1, shapes: [described('TextBox 1', 'A note')] },
      ],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    const [first, second] = slideParts(result.bytes).map((name) => parts(result.bytes).get(name) ?? '');
    expect(nonVisual(first!, 'Table 1')).toMatchObject({
      descr: 'Sales per region',
      title: 'Sales per region (title)',
    });
    expect(nonVisual(first!, 'Group 1')).toMatchObject({ descr: 'Logo block', title: 'Logo block (title)' });
    expect(nonVisual(first!, 'Picture 1')).toMatchObject({ descr: 'A red square' });
    expect(nonVisual(second!, 'TextBox 1')).toMatchObject({ descr: 'A note', title: 'A note (title)' });
  });
});

describe('accessibility: "report"', () => {
  it('warns, with a code, about each shape without alt text, the slide without a title and the table without a header row', async () => {
    const result = run(TEMPLATE, {
      accessibility: 'report',
      slides: [
        { slide_index: 0, shapes: [{ name: 'Table 1', content: [['Region', 'Sales']] }] },
        { slide_index: 1 },
      ],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    expect(result.warnings.filter((w) => w.code !== undefined)).toEqual([
      {
        code: 'ACCESSIBILITY_NO_ALT_TEXT',
        path: 'presentation.slides[0].shapes[0]',
        message: 'table "Table 1" has no alternative text (give alt_text)',
      },
      {
        code: 'ACCESSIBILITY_NO_TABLE_HEADER',
        path: 'presentation.slides[0].shapes[0]',
        message: `table "Table 1" has no header row (the table's first-row flag is off)`,
      },
      {
        code: 'ACCESSIBILITY_NO_ALT_TEXT',
        path: 'presentation.slides[0]',
        message: 'output slide 0: group "Group 1" has no alternative text (give alt_text)',
      },
      {
        code: 'ACCESSIBILITY_NO_ALT_TEXT',
        path: 'presentation.slides[0]',
        message: 'output slide 0: picture "Picture 1" has no alternative text (give alt_text)',
      },
      {
        code: 'ACCESSIBILITY_NO_SLIDE_TITLE',
        path: 'presentation.slides[1]',
        message: 'output slide 1 has no title (a title placeholder with text)',
      },
    ]);
  });

  it('has nothing to say once the payload describes every shape, and off (the default) checks nothing', () => {
    const slides = [
      {
        slide_index: 0,
        shapes: ['Table 1', 'Group 1', 'Picture 1'].map((name) => ({ name, alt_text: `${name} described` })),
      },
    ];
    const report = run(TEMPLATE, { accessibility: 'report', slides });
    // The table still has no header row: the template's flag is off and the payload does not change it.
    expect(report.warnings.map((w) => w.code)).toEqual(['ACCESSIBILITY_NO_TABLE_HEADER']);
    expect(run(TEMPLATE, { slides: [{ slide_index: 1 }] }).warnings).toEqual([]);
  });

  it('checks every slide an all_slides entry adds', () => {
    const result = run(TEMPLATE, { accessibility: 'report', slides: [{ all_slides: true }] });
    expect(result.warnings.filter((w) => w.code === 'ACCESSIBILITY_NO_SLIDE_TITLE')).toEqual([
      {
        code: 'ACCESSIBILITY_NO_SLIDE_TITLE',
        path: 'presentation.slides[0]',
        message: 'output slide 1 has no title (a title placeholder with text)',
      },
    ]);
  });
});

describe('accessibility: "require"', () => {
  it('refuses the deck with one error listing every problem', () => {
    const error = engineErrorOf(() =>
      run(TEMPLATE, { accessibility: 'require', slides: [{ slide_index: 0 }, { slide_index: 1 }] }),
    );
    expect(error.code).toBe('INACCESSIBLE_OUTPUT');
    expect(error.message).toBe(
      '5 problems (accessibility: "require"): ' +
        '(1) presentation.slides[0]: output slide 0: table "Table 1" has no alternative text (give alt_text); ' +
        `(2) presentation.slides[0]: output slide 0: table "Table 1" has no header row (the table's first-row flag is off); ` +
        '(3) presentation.slides[0]: output slide 0: group "Group 1" has no alternative text (give alt_text); ' +
        '(4) presentation.slides[0]: output slide 0: picture "Picture 1" has no alternative text (give alt_text); ' +
        '(5) presentation.slides[1]: output slide 1 has no title (a title placeholder with text)',
    );
  });

  it('delivers a deck that has what readers need', async () => {
    const result = run(TEMPLATE, {
      accessibility: 'require',
      slides: [
        {
          slide_index: 0,
          shapes: [
            { name: 'Table 1', remove: true },
            { name: 'Group 1', alt_text: 'Logo' },
            { name: 'Picture 1', alt_text: 'A red square' },
          ],
        },
      ],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    expect(result.warnings).toEqual([]);
    expect(result.slideCount).toBe(1);
  });

  it('refuses an accessibility mode it does not know', () => {
    const error = engineErrorOf(() =>
      run(TEMPLATE, { accessibility: 'strict', slides: [{ slide_index: 1 }] }),
    );
    expect(error.message).toContain('presentation.accessibility');
  });
});

describe('a report of any length', () => {
  it('reports 200 000 findings (2 000 copies of a slide of 100 undescribed pictures) as warnings, not a RangeError', () => {
    const template = undescribedPicturesDeck(100);
    const result = run(template, {
      accessibility: 'report',
      slides: Array.from({ length: 2_000 }, () => ({ slide_index: 0 })),
    });
    expect(result.slideCount).toBe(2_000);
    expect(result.warnings.length).toBeGreaterThanOrEqual(200_000);
    expect(result.warnings[199_999]?.path).toMatch(/^presentation\.slides\[1999\]/);
  });
});

/**
 * Links between slides (`"hyperlink": {"slide": N}`) and whole templates (`{"all_slides": true}`),
 * docs/payload.md "Links between slides" and "Slides".
 */
import { describe, expect, it } from 'vitest';
import { countRequestedSlides, generate, parsePayload, payloadFacts } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { editPart } from '../../support/decks/package-edit.js';
import { tablesDeck } from '../../support/decks/table-decks.js';
import { paragraphs, parts, run, SAMPLE, shapeXml, slideParts } from '../../support/decks/deck.js';

/** The slide part a relationship of `slidePart` points at, resolved to a package path. */
function linkTarget(all: Map<string, string>, slidePart: string, rId: string): string | null {
  const rels = all.get(slidePart.replace('slides/', 'slides/_rels/') + '.rels') ?? '';
  const rel = [...rels.matchAll(/<Relationship [^>]*\/>/g)]
    .map((m) => m[0])
    .find((r) => r.includes(`Id="${rId}"`));
  const target = rel && /Target="([^"]+)"/.exec(rel)?.[1];
  if (!target) return null;
  expect(rel).toContain('relationships/slide"');
  return target.startsWith('/') ? target.slice(1) : `ppt/slides/${target.replace(/^\.\//, '')}`;
}

function slideJumps(all: Map<string, string>, slidePart: string): string[] {
  const xml = all.get(slidePart) ?? '';
  return [...xml.matchAll(/<a:hlinkClick r:id="([^"]+)" action="ppaction:\/\/hlinksldjump"\/>/g)].map(
    (m) => linkTarget(all, slidePart, m[1]!) ?? 'missing',
  );
}

describe('links between slides', () => {
  it('a run and a table cell jump to output slides, forward and back, copies and layouts included', async () => {
    const result = run(SAMPLE, {
      slides: [
        {
          slide_index: 1,
          shapes: [
            {
              name: 'Body',
              content: [
                { text_run: 'Contact ', text_properties: { hyperlink: { slide: 3 } } },
                { text_run: 'Agenda again', text_properties: { hyperlink: { slide: 2 }, new_line: true } },
                { text_run: 'web', text_properties: { hyperlink: 'https://example.com/', new_line: true } },
              ],
            },
          ],
        },
        { slide_index: 0 },
        {
          slide_index: 1,
          shapes: [
            { name: 'Title', content: [{ text_run: 'Back', text_properties: { hyperlink: { slide: 0 } } }] },
          ],
        },
        { slide_index: 2 },
        { type: 'layout', slide_index: 1 },
      ],
    });
    await expectValidPptx(result.bytes, SAMPLE);
    const all = parts(result.bytes);
    const order = slideParts(result.bytes);
    expect(slideJumps(all, order[0]!)).toEqual([order[3], order[2]]);
    expect(slideJumps(all, order[2]!)).toEqual([order[0]]);
    expect(paragraphs(shapeXml(all.get(order[0]!)!, 'Body'))).toEqual(['Contact ', 'Agenda again', 'web']);
  });

  it('a link in a table cell jumps too', async () => {
    const template = tablesDeck();
    const result = run(template, {
      slides: [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Table 1',
              content: [[{ text: 'See details', cell_properties: { hyperlink: { slide: 1 } } }]],
            },
          ],
        },
        { slide_index: 1 },
      ],
    });
    await expectValidPptx(result.bytes, template);
    const all = parts(result.bytes);
    const order = slideParts(result.bytes);
    expect(slideJumps(all, order[0]!)).toEqual([order[1]]);
  });

  it('a link to a slide the output does not have is a 400 naming it', () => {
    const error = engineErrorOf(() =>
      run(SAMPLE, {
        slides: [
          { slide_index: 0 },
          {
            slide_index: 1,
            shapes: [
              { name: 'Title', content: [{ text_run: 'x', text_properties: { hyperlink: { slide: 2 } } }] },
            ],
          },
        ],
      }),
    );
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toBe(
      'presentation.slides[1].shapes[0].content[0].text_properties.hyperlink.slide: expected the index of an output slide (0–1: the deck has 2 slides), got 2',
    );
    expect(
      engineErrorOf(() =>
        run(SAMPLE, {
          slides: [
            {
              slide_index: 0,
              shapes: [
                {
                  name: 'Title',
                  content: [{ text_run: 'x', text_properties: { hyperlink: { slide: -1 } } }],
                },
              ],
            },
          ],
        }),
      ).message,
    ).toContain('hyperlink.slide: expected an integer >= 0, got -1');
  });
});

describe('whole templates', () => {
  // The layouts template with its third slide hidden.
  const withHidden = editPart(layoutsTemplate(), 'ppt/slides/slide3.xml', (xml) =>
    xml.replace('<p:sld ', '<p:sld show="0" '),
  );

  it('all_slides appends every slide of a template in order, hidden ones hidden, and a link may point into them', async () => {
    const count = generate({
      files: new Map([['t.pptx', withHidden]]),
      payload: { presentation: { template: 't.pptx', slides: [{ all_slides: true }] } },
    }).slideCount;
    const result = generate({
      files: new Map([
        ['tables.pptx', tablesDeck()],
        ['layouts.pptx', withHidden],
      ]),
      payload: {
        presentation: {
          template_list: [
            { template_id: 'tables', template: 'tables.pptx' },
            { template_id: 'layouts', template: 'layouts.pptx' },
          ],
          slides: [
            {
              template_id: 'tables',
              slide_index: 0,
              shapes: [
                {
                  name: 'Table 1',
                  content: [[{ text: 'Appendix', cell_properties: { hyperlink: { slide: 1 } } }]],
                },
              ],
            },
            { template_id: 'layouts', all_slides: true },
            { template_id: 'tables', slide_index: 1 },
          ],
        },
      },
    });
    await expectValidPptx(result.bytes, [tablesDeck(), withHidden]);
    expect(count).toBe(10);
    expect(result.slideCount).toBe(12);
    const all = parts(result.bytes);
    const order = slideParts(result.bytes);
    expect(order).toHaveLength(12);
    const hidden = order.map((part) => /<p:sld [^>]*show="0"/.test(all.get(part) ?? ''));
    expect(hidden.indexOf(true)).toBe(3);
    expect(hidden.filter(Boolean)).toHaveLength(1);
    expect(slideJumps(all, order[0]!)).toEqual([order[1]]);
  });

  it("counts an all_slides entry as its template's slides, and refuses an expansion past maxSlides before any slide is made", () => {
    const files = new Map([['t.pptx', layoutsTemplate()]]);
    const payload = {
      presentation: { template: 't.pptx', slides: [{ all_slides: true }, { slide_index: 0 }] },
    };
    expect(countRequestedSlides(payloadFacts(parsePayload(payload)), files)).toBe(11);
    expect(countRequestedSlides(payloadFacts(parsePayload(payload)), new Map())).toBe(2); // not at hand yet
    const progress: number[] = [];
    const error = engineErrorOf(() =>
      generate({ files, payload, maxSlides: 10, onProgress: (done) => progress.push(done) }),
    );
    expect(error.code).toBe('TOO_MANY_SLIDES');
    expect(error.message).toBe(
      'presentation.slides: the deck would have 11 slides (all_slides entries expanded), more than 10 slides; list fewer slides or split the request',
    );
    expect(progress).toEqual([]);
    expect(generate({ files, payload, maxSlides: 11 }).slideCount).toBe(11);
  });

  it('refuses shapes on an all_slides entry, and all_slides beside slide_index', () => {
    const shapes = engineErrorOf(() =>
      run(SAMPLE, { slides: [{ all_slides: true, shapes: [{ name: 'Title', content: 'x' }] }] }),
    );
    expect(shapes.message).toBe(
      'presentation.slides[0].shapes: all_slides takes no shapes; list a slide by slide_index to change it',
    );
    const both = engineErrorOf(() => run(SAMPLE, { slides: [{ all_slides: true, slide_index: 0 }] }));
    expect(both.message).toContain('expected only one of slide_index, slide_id, all_slides');
    const no = engineErrorOf(() => run(SAMPLE, { slides: [{ all_slides: false }] }));
    expect(no.message).toBe('presentation.slides[0].all_slides: expected true, got false');
  });
});

describe('optional shapes', () => {
  it('remove_if_empty drops a shape whose value is empty and fills one whose value is not', async () => {
    const result = run(SAMPLE, {
      slides: [
        {
          slide_index: 1,
          shapes: [
            { name: 'Footnote', content: '', remove_if_empty: true },
            { name: 'Body', content: 'Kept', remove_if_empty: true },
          ],
        },
      ],
    });
    await expectValidPptx(result.bytes, SAMPLE);
    const slide = parts(result.bytes).get(slideParts(result.bytes)[0]!)!;
    expect(slide).not.toContain('name="Footnote"');
    expect(paragraphs(shapeXml(slide, 'Body'))).toEqual(['Kept']);
  });
});

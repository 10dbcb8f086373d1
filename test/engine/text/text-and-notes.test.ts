/** Text shapes, runs, notes, tags and validation modes on the project's own sample template. */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import { itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { paragraphs, parts, run, SAMPLE, shapeXml, slideParts } from '../../support/decks/deck.js';

describe('text', () => {
  it('a string with \\n makes paragraphs that keep the template paragraph formatting, the last one repeating', async () => {
    const result = run(SAMPLE, {
      slides: [{ slide_index: 1, shapes: [{ name: 'Body', content: 'One\nTwo\nThree\nFour' }] }],
    });
    const slide = parts(result.bytes).get(slideParts(result.bytes)[0]!)!;
    const body = shapeXml(slide, 'Body');
    expect(paragraphs(body)).toEqual(['One', 'Two', 'Three', 'Four']);
    // Template: level 0, level 1, level 0 — the fourth paragraph repeats the last.
    const levels = [...body.matchAll(/<a:p>(<a:pPr[^>]*>|<a:pPr[^/]*\/>)?/g)].map(
      (m) => /lvl="(\d)"/.exec(m[1] ?? '')?.[1] ?? '0',
    );
    expect(levels).toEqual(['0', '1', '0', '0']);
    await expectValidPptx(result.bytes, SAMPLE);
  });

  it('an empty string empties the shape but keeps one formatted paragraph', async () => {
    const result = run(SAMPLE, { slides: [{ slide_index: 1, shapes: [{ name: 'Footnote', content: '' }] }] });
    const footnote = shapeXml(parts(result.bytes).get(slideParts(result.bytes)[0]!)!, 'Footnote');
    expect(paragraphs(footnote)).toEqual(['']);
    expect(footnote).toMatch(/sz="1200"/);
    await expectValidPptx(result.bytes, SAMPLE);
  });

  it('runs carry their text_properties into a:rPr and a:pPr, in schema order, with a hyperlink relationship', async () => {
    const result = run(SAMPLE, {
      slides: [
        {
          slide_index: 1,
          shapes: [
            {
              name: 'Body',
              content: [
                {
                  text_run: 'Bold red ',
                  text_properties: {
                    font_bold: true,
                    font_color: '#FF0000',
                    font_size: 20,
                    text_align: 'center',
                  },
                },
                {
                  text_run: 'link',
                  text_properties: { hyperlink: 'https://example.com/?a=1&b=2', font_underline: 'single' },
                },
                {
                  text_run: 'second paragraph',
                  text_properties: { new_line: true, font_italic: true, bullet_indent_level: 1 },
                },
              ],
            },
          ],
        },
      ],
    });
    const all = parts(result.bytes);
    const slidePart = slideParts(result.bytes)[0]!;
    const body = shapeXml(all.get(slidePart)!, 'Body');
    expect(paragraphs(body)).toEqual(['Bold red link', 'second paragraph']);
    expect(body).toMatch(/<a:pPr[^>]*algn="ctr"/);
    expect(body).toMatch(/<a:rPr[^>]*sz="2000"[^>]*b="1"|<a:rPr[^>]*b="1"[^>]*sz="2000"/);
    expect(body).toMatch(/<a:solidFill><a:srgbClr val="FF0000"\/><\/a:solidFill>/);
    expect(body).toMatch(/u="sng"/);
    expect(body).toMatch(/<a:pPr[^>]*lvl="1"/);
    const relId = /<a:hlinkClick r:id="([^"]+)"/.exec(body)?.[1];
    const rels = all.get(slidePart.replace('slides/', 'slides/_rels/') + '.rels')!;
    expect(rels).toContain(`Id="${relId}"`);
    expect(rels).toContain('Target="https://example.com/?a=1&amp;b=2" TargetMode="External"');
    await expectValidPptx(result.bytes, SAMPLE);
  });

  it('finds shapes by shapeId and inside groups; hides, moves and removes shapes', async () => {
    const result = run(SAMPLE, {
      slides: [
        {
          slide_index: 2,
          shapes: [
            { shapeId: '4', content: 'mail@example.com' },
            { name: 'Closing Text', is_hidden: true },
          ],
        },
        {
          slide_index: 1,
          shapes: [
            {
              name: 'Footnote',
              settings: { left: 1, top: 2, width: 10, height: 1, unit: 'cm', fill_color: 'RGB(0,128,255)' },
            },
            { name: 'Title', remove: true },
          ],
        },
      ],
    });
    const all = parts(result.bytes);
    const [closing, highlights] = slideParts(result.bytes).map((p) => all.get(p)!);
    expect(paragraphs(shapeXml(closing!, 'Contact'))).toEqual(['mail@example.com']);
    expect(closing).toMatch(/<p:cNvPr id="3" name="Closing Text" hidden="1"/);
    const footnote = shapeXml(highlights!, 'Footnote');
    expect(footnote).toContain('<a:off x="360000" y="720000"/><a:ext cx="3600000" cy="360000"/>');
    expect(footnote).toContain('<a:srgbClr val="0080FF"/>');
    expect(highlights).not.toContain('name="Title"');
    await expectValidPptx(result.bytes, SAMPLE);
  });

  it('refuses content of the wrong kind, naming the shape and the path', () => {
    expect(() =>
      run(SAMPLE, { slides: [{ slide_index: 1, shapes: [{ name: 'Body', content: [['a', 'b']] }] }] }),
    ).toThrow(/presentation\.slides\[0\]\.shapes\[0\]\.content.*Body/);
  });
});

describe('notes', () => {
  it('creates a notes slide and, when the template has none, a notes master', async () => {
    const result = run(SAMPLE, {
      slides: [
        { slide_index: 0, notes: 'Speak slowly\nSmile' },
        { slide_index: 0, notes: [{ text_run: 'Second', text_properties: { font_bold: true } }] },
        { slide_index: 1 },
      ],
    });
    const all = parts(result.bytes);
    const names = [...all.keys()];
    expect(names.filter((n) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(n))).toHaveLength(2);
    expect(names.filter((n) => /^ppt\/notesMasters\/notesMaster\d+\.xml$/.test(n))).toHaveLength(1);
    expect(all.get('ppt/presentation.xml')).toMatch(
      /<p:sldMasterIdLst>.*<\/p:sldMasterIdLst><p:notesMasterIdLst><p:notesMasterId r:id="[^"]+"\/><\/p:notesMasterIdLst><p:sldIdLst>/,
    );
    const notesTexts = names
      .filter((n) => /notesSlide\d+\.xml$/.test(n))
      .map((n) => paragraphs(all.get(n)!).filter(Boolean));
    expect(notesTexts).toEqual(expect.arrayContaining([['Speak slowly', 'Smile'], ['Second']]));
    expect(all.get('docProps/app.xml')).toContain('<Notes>2</Notes>');
    await expectValidPptx(result.bytes, SAMPLE);
  });

  itCorpus('gives a created notes master a theme whose background picture still resolves', async () => {
    // No notes master, and a theme that fills a background style with a picture (r:embed in the theme).
    const template = readCorpus('poi/ae.ac.uaeu.faculty_nafaachbili_GeomLec1.pptx');
    const result = run(template, { slides: [{ slide_index: 0, notes: 'Notes need a notes master' }] });
    const all = parts(result.bytes);
    const masterRels = all.get('ppt/notesMasters/_rels/notesMaster1.xml.rels') ?? '';
    const theme = /Target="\.\.\/theme\/(theme\d+\.xml)"/.exec(masterRels)?.[1] ?? '';
    expect(all.get(`ppt/theme/${theme}`)).toContain('r:embed="rId1"');
    expect(all.get(`ppt/theme/_rels/${theme}.rels`)).toContain('Id="rId1"');
    await expectValidPptx(result.bytes, template);
  });
});

describe('tags', () => {
  it('replaces deck and slide tags; slide tags win', async () => {
    const result = run(SAMPLE, {
      tags: [
        { key: 'company', value: 'Acme' },
        { Key: 'quarter', Value: 'Q1' },
        { key: 'contact', value: 'a@b.c' },
      ],
      slides: [
        { slide_index: 0, tags: [{ key: 'quarter', value: 2025 }] },
        { slide_index: 0 },
        { slide_index: 2 },
      ],
    });
    const all = parts(result.bytes);
    const [first, second, third] = slideParts(result.bytes).map((p) => all.get(p)!);
    expect(paragraphs(shapeXml(first!, 'Subtitle'))).toEqual(['Acme · 2025']);
    expect(paragraphs(shapeXml(second!, 'Subtitle'))).toEqual(['Acme · Q1']);
    expect(paragraphs(shapeXml(third!, 'Contact'))).toEqual(['a@b.c']);
    await expectValidPptx(result.bytes, SAMPLE);
  });

  it('strict tag validation refuses a slide tag the slide never uses; lenient warns', () => {
    const slides = [{ slide_index: 1, tags: [{ key: 'nowhere', value: 'x' }] }];
    expect(() => run(SAMPLE, { tag_validation_mode: 'strict', slides })).toThrow(
      /tag "nowhere" is not used on this slide/,
    );
    const lenient = run(SAMPLE, { slides });
    expect(lenient.warnings).toContainEqual({
      path: 'presentation.slides[0].tags',
      message: 'tag "nowhere" is not used on this slide',
      code: 'TAG_NOT_USED',
    });
  });
});

describe('tags that matched nothing', () => {
  it('a template tag left without a value is warned with its output slide and shape, and the slide stays as it was', async () => {
    // Slide 2 goes out byte for byte (nothing asks a change of it), and its tag is still found, in the template's part.
    const result = run(SAMPLE, {
      tags: [{ key: 'quarter', value: 'Q3' }],
      slides: [{ slide_index: 1 }, { slide_index: 0 }, { slide_index: 2 }],
    });
    expect(result.warnings).toEqual([
      {
        path: 'presentation.slides[1]',
        message: 'output slide 1: shape "Subtitle" still shows {{company}}: no tag "company" was given',
        code: 'TAG_UNFILLED',
      },
      {
        path: 'presentation.slides[2]',
        message: 'output slide 2: shape "Contact" still shows {{contact}}: no tag "contact" was given',
        code: 'TAG_UNFILLED',
      },
    ]);
    const [, , closing] = slideParts(result.bytes).map((p) => parts(result.bytes).get(p)!);
    expect(paragraphs(shapeXml(closing!, 'Contact'))).toEqual(['{{contact}}']);
    await expectValidPptx(result.bytes, SAMPLE);
    // A tag given the value that writes it back (the console's pre-fill does) was given: no warning.
    const written = run(SAMPLE, {
      tags: [{ key: 'contact', value: '{{contact}}' }],
      slides: [{ slide_index: 2 }],
    });
    expect(written.warnings).toEqual([]);
    expect(paragraphs(shapeXml(parts(written.bytes).get(slideParts(written.bytes)[0]!)!, 'Contact'))).toEqual(
      ['{{contact}}'],
    );
  });

  it('a tag in the speaker notes left without a value is warned too', () => {
    const result = run(SAMPLE, {
      tags: [
        { key: 'company', value: 'Acme' },
        { key: 'quarter', value: 'Q3' },
      ],
      slides: [{ slide_index: 0, notes: 'Ask {{presenter}} to open' }],
    });
    expect(result.warnings).toEqual([
      {
        path: 'presentation.slides[0]',
        message: 'output slide 0: the notes still show {{presenter}}: no tag "presenter" was given',
        code: 'TAG_UNFILLED',
      },
    ]);
  });

  it("an all_slides entry's tags are judged on all its slides together, naming them", () => {
    const tags = [
      { key: 'company', value: 'Acme' },
      { key: 'quarter', value: 'Q3' },
      { key: 'contact', value: 'a@b.c' },
    ];
    // Each tag is used on one of the three slides only: no warning.
    expect(run(SAMPLE, { slides: [{ all_slides: true, tags }] }).warnings).toEqual([]);
    const unused = run(SAMPLE, {
      slides: [{ slide_index: 1 }, { all_slides: true, tags: [...tags, { key: 'nowhere', value: 'x' }] }],
    });
    expect(unused.warnings).toEqual([
      {
        path: 'presentation.slides[1].tags',
        message: 'tag "nowhere" is not used on any slide of this all_slides entry (output slides 1–3)',
        code: 'TAG_NOT_USED',
      },
    ]);
    expect(() =>
      run(SAMPLE, {
        tag_validation_mode: 'strict',
        slides: [{ all_slides: true, tags: [...tags, { key: 'nowhere', value: 'x' }] }],
      }),
    ).toThrow(/tag "nowhere" is not used on any slide of this all_slides entry \(output slides 0–2\)/);
  });
});

describe('shape validation modes', () => {
  it('strict: a missing shape is an error listing the shapes the slide has', () => {
    try {
      run(SAMPLE, {
        shape_validation_mode: 'strict',
        slides: [{ slide_index: 1, shapes: [{ name: 'Nope', content: 'x' }] }],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('SHAPE_NOT_FOUND');
      expect((error as Error).message).toMatch(
        /presentation\.slides\[0\]\.shapes\[0\].*"Nope".*"Title".*"Body".*"Footnote"/,
      );
    }
  });

  it('lenient (default): skipped with a warning; the slide-level mode wins over the deck', () => {
    const result = run(SAMPLE, {
      shape_validation_mode: 'strict',
      slides: [
        { slide_index: 1, shape_validation_mode: 'lenient', shapes: [{ name: 'Nope', content: 'x' }] },
      ],
    });
    expect(
      result.warnings.some(
        (w) => w.path.startsWith('presentation.slides[0].shapes[0]') && w.message.includes('Nope'),
      ),
    ).toBe(true);
  });
});

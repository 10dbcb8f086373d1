/**
 * Messages that name what is wrong (docs/payload.md, Validation modes): a misspelt key is named with the key it
 * stands for, an object given to a text shape says what a text shape takes, every problem the templates reveal
 * comes in one error, and uploaded files the payload misuses or never uses are named in warnings.
 */
import { describe, expect, it } from 'vitest';
import { checkPayload, generate } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { png } from '../../support/decks/test-images.js';
import { SAMPLE } from '../../support/decks/deck.js';

function refusal(payload: unknown, files: Record<string, Uint8Array> = { 't.pptx': SAMPLE }) {
  return engineErrorOf(() => generate({ payload, files: new Map(Object.entries(files)) }));
}

describe('a misspelt key', () => {
  it('is named with the key it stands for when that key is then missing', () => {
    const error = refusal({ presentation: { tempalte: 't.pptx', slides: [{ slide_index: 0 }] } });
    expect(error.message).toBe(
      'presentation: expected template or template_list, got none of them; unknown key "tempalte" given ' +
        '(did you mean "template"?)',
    );
    expect(refusal({ presentation: { template: 't.pptx', slides: [{ slide_indx: 0 }] } }).message).toBe(
      'presentation.slides[0]: expected slide_index, slide_id or all_slides, got none of them; unknown key ' +
        '"slide_indx" given (did you mean "slide_index"?)',
    );
  });

  it('is named in the warning when the deck is still made', async () => {
    const result = generate({
      payload: {
        presentation: {
          template: 't.pptx',
          resultFilename: 'Q3',
          slides: [{ slide_index: 0, shapes: [{ name: 'Title', content: 'Hello' }] }],
        },
      },
      files: new Map([['t.pptx', SAMPLE]]),
    });
    await expectValidPptx(result.bytes, SAMPLE);
    expect(result.warnings).toContainEqual({
      path: 'presentation.resultFilename',
      message: 'unknown key "resultFilename" ignored (did you mean "resultFileName"?)',
      code: 'UNKNOWN_KEY',
    });
  });

  it('at the root names "presentation"', () => {
    expect(refusal({ presentaton: { template: 't.pptx', slides: [] } }).message).toContain(
      'got an object with "presentaton" (did you mean "presentation" for "presentaton"?)',
    );
  });
});

it('an object given as a text shape content says what a text shape takes', () => {
  const error = refusal({
    presentation: {
      template: 't.pptx',
      slides: [{ slide_index: 0, shapes: [{ name: 'Title', content: { text: 'x' } }] }],
    },
  });
  expect(error.message).toBe(
    'presentation.slides[0].shapes[0].content: got an object with "text", which is no content form: a text ' +
      'shape takes a string ("content": "x") or an array of runs ([{"text_run": "x"}]); a table an array of ' +
      'rows; a picture a file name, URL or data: URI; a chart an object {categories, series}',
  );
  expect(error.message).not.toContain('series or data');
});

it('every problem the template reveals comes in one error', () => {
  const error = refusal({
    presentation: {
      template: 't.pptx',
      slides: [
        { slide_index: 9 },
        { slide_index: 1, shape_validation_mode: 'strict', shapes: [{ name: 'Nope', content: 'x' }] },
        {
          slide_index: 0,
          shapes: [
            { name: 'Title', content: [['a', 'b']] },
            { name: 'Subtitle', filename: 'logo.png' },
          ],
        },
      ],
    },
  });
  expect(error.code).toBe('INVALID_PAYLOAD');
  expect(error.message).toBe(
    '4 problems: ' +
      '(1) presentation.slides[0].slide_index: slide_index 9 is out of range: the template has 3 slides (0–2); ' +
      '(2) presentation.slides[1].shapes[0]: slide has no shape named "Nope"; its shapes are: "Title", "Body", ' +
      '"Footnote"; ' +
      '(3) presentation.slides[2].shapes[0].content: shape "Title" is a text shape but content is a table; a ' +
      'text shape takes a string or an array of runs; ' +
      '(4) presentation.slides[2].shapes[1].filename: picture "logo.png" is not among the uploaded files ' +
      '(uploaded: "t.pptx"); the name must match exactly',
  );
});

describe('uploaded files', () => {
  it('warn when a text value is the name of one, and when the payload never uses one', async () => {
    const logo = await png(20, 20);
    const result = generate({
      payload: {
        presentation: {
          template: 't.pptx',
          slides: [{ slide_index: 0, shapes: [{ name: 'Subtitle', content: 'logo.png' }] }],
        },
      },
      files: new Map([
        ['t.pptx', SAMPLE],
        ['logo.png', logo],
        ['chart.png', logo],
      ]),
    });
    await expectValidPptx(result.bytes, SAMPLE);
    expect(result.warnings).toEqual([
      {
        path: 'presentation.slides[0].shapes[0].content',
        message:
          '"logo.png" is the name of an uploaded file, but shape "Subtitle" is a text shape, so it was written ' +
          'as text; to put the picture into this shape, give it as "filename": "logo.png"',
      },
      {
        path: 'files',
        message: 'uploaded file "logo.png" is not used: no template or picture of the payload names it',
      },
      {
        path: 'files',
        message: 'uploaded file "chart.png" is not used: no template or picture of the payload names it',
      },
    ]);
  });

  it('used as a picture is not mentioned', async () => {
    const logo = await png(20, 20);
    const result = generate({
      payload: {
        presentation: {
          template: 't.pptx',
          tags: [
            { key: 'company', value: 'Acme' },
            { key: 'quarter', value: 'Q3' },
          ],
          slides: [{ slide_index: 0, shapes: [{ name: 'Subtitle', filename: 'logo.png' }] }],
        },
      },
      files: new Map([
        ['t.pptx', SAMPLE],
        ['logo.png', logo],
      ]),
    });
    await expectValidPptx(result.bytes, SAMPLE);
    expect(result.warnings).toEqual([]);
  });
});

describe('checkPayload: a payload the schema refuses', () => {
  const check = (payload: unknown) =>
    engineErrorOf(() => checkPayload({ payload, files: new Map([['t.pptx', SAMPLE]]) }));

  it("lists the template's problems of the slides and shapes it names rightly after the schema's", () => {
    const error = check({
      presentation: {
        template: 't.pptx',
        shape_validation_mode: 'strict',
        slides: [
          { slide_index: 0, tag_validation_mode: 'sometimes' },
          { slide_index: 9 },
          { slide_index: 0, shapes: [{ name: 'Titel', content: 'y' }] },
        ],
      },
    });
    expect(error.message).toMatch(
      /^3 problems: \(1\) presentation\.slides\[0\]\.tag_validation_mode: expected .*; \(2\) presentation\.slides\[1\]\.slide_index: slide_index 9 is out of range: .*; \(3\) presentation\.slides\[2\]\.shapes\[0\]: slide has no shape named "Titel"/,
    );
  });

  it('tells a part with a problem of its own once, for that', () => {
    const error = check({
      presentation: {
        template: 't.pptx',
        shape_validation_mode: 'strict',
        slides: [{ slide_index: -1, shapes: [{ name: 'Titel', content: 'y' }] }],
      },
    });
    expect(error.message).toMatch(
      /^presentation\.slides\[0\]\.slide_index: expected an integer >= 0, got -1$/,
    );
  });

  it('returns for a payload the schema accepts, and tells the schema alone without the template', () => {
    expect(() =>
      checkPayload({
        payload: { template: 't.pptx', slides: [{ slide_index: 9 }] },
        files: new Map([['t.pptx', SAMPLE]]),
      }),
    ).not.toThrow();
    const alone = engineErrorOf(() =>
      checkPayload({
        payload: { template: 'other.pptx', slides: [{ slide_index: 9, notes: {} }] },
        files: new Map([['t.pptx', SAMPLE]]),
      }),
    );
    expect(alone.message).not.toContain('out of range');
  });
});

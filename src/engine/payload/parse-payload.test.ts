import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import { parsePayload, parsePayloadText } from './parse-payload.js';

const slide0 = { slide_index: 0 };

function presentation(fields: Record<string, unknown>): unknown {
  return { presentation: { template: 'template.pptx', slides: [slide0], ...fields } };
}

function refusal(json: unknown): { path: string | null; message: string } {
  const e = engineErrorOf(() => parsePayload(json));
  expect(e.code).toBe('INVALID_PAYLOAD');
  return { path: e.path, message: e.message };
}

describe('envelope', () => {
  it('normalises a minimal payload with the defaults of docs/payload.md', () => {
    const { request, warnings } = parsePayload(presentation({}));
    expect(warnings).toEqual([]);
    expect(request).toEqual({
      templates: [{ id: null, source: 'template.pptx', path: 'presentation.template' }],
      locale: 'en-US',
      exportVersion: null,
      resultFileName: null,
      slides: [
        {
          path: 'presentation.slides[0]',
          kind: 'slide',
          templateId: null,
          select: { by: 'index', index: 0 },
          shapes: [],
          notes: null,
          tags: [],
          tagValidation: null,
          shapeValidation: null,
        },
      ],
      tags: [],
      tagValidation: 'lenient',
      shapeValidation: 'lenient',
      accessibility: 'off',
      slideLinks: [],
      brand: { theme: null, fonts: [], pages: [] },
    });
  });

  it('accepts the presentation fields at the root, with paths relative to the root', () => {
    const { request } = parsePayload({ template: 'https://example.com/t.pptx', slides: [slide0] });
    expect(request.templates[0]).toEqual({
      id: null,
      source: 'https://example.com/t.pptx',
      path: 'template',
    });
    expect(request.slides[0]?.path).toBe('slides[0]');
    expect(refusal({ template: 't.pptx', slides: [{ slide_index: -1 }] }).path).toBe('slides[0].slide_index');
  });

  it('reads export_version case-insensitively and refuses other versions', () => {
    expect(parsePayload(presentation({ export_version: 'pptx2010' })).request.exportVersion).toBe('Pptx2010');
    expect(parsePayload(presentation({ export_version: 'PPTX2013' })).request.exportVersion).toBe('Pptx2013');
    expect(refusal(presentation({ export_version: 'Pptx2007' }))).toEqual({
      path: 'presentation.export_version',
      message:
        'presentation.export_version: expected one of "Pptx2010", "Pptx2013", "Pptx2019", got "Pptx2007"',
    });
  });

  it('reads the deck-level validation modes and tags', () => {
    const { request } = parsePayload(
      presentation({
        tag_validation_mode: 'strict',
        shape_validation_mode: 'lenient',
        tags: [
          { key: 'name', value: 'Ada' },
          { Key: 'year', Value: 2026 },
          { key: ' {{ spaced }} ', value: 1.5 },
        ],
      }),
    );
    expect(request.tagValidation).toBe('strict');
    expect(request.shapeValidation).toBe('lenient');
    expect(request.tags).toEqual([
      { key: 'name', value: 'Ada' },
      { key: 'year', value: '2026' },
      { key: 'spaced', value: '1.5' },
    ]);
  });

  it('keeps the last value of a tag given twice, with a warning', () => {
    const { request, warnings } = parsePayload(
      presentation({
        tags: [
          { key: 'a', value: '1' },
          { key: 'a', value: '2' },
        ],
      }),
    );
    expect(request.tags).toEqual([{ key: 'a', value: '2' }]);
    expect(warnings).toEqual([
      { path: 'presentation.tags[1]', message: 'tag "a" is given more than once; the last value is used' },
    ]);
  });

  it('treats null on optional fields as not given (what .NET clients send for unset properties)', () => {
    const { request, warnings } = parsePayload(
      presentation({ resultFileName: null, export_version: null, tags: null, template_list: null }),
    );
    expect(warnings).toEqual([]);
    expect(request.exportVersion).toBeNull();
    expect(request.resultFileName).toBeNull();
  });
});

describe('warnings for unknown keys', () => {
  it('ignores unknown keys at every level and names each one', () => {
    const { request, warnings } = parsePayload({
      presentation: {
        template: 't.pptx',
        colour_scheme: 'dark',
        slides: [{ slide_index: 0, transition: 'fade', shapes: [{ name: 'T', content: 'x', animation: 1 }] }],
      },
      version: 2,
    });
    expect(request.slides[0]?.shapes).toHaveLength(1);
    expect(warnings).toEqual(
      [
        { path: 'version', message: 'unknown key "version" ignored' },
        { path: 'presentation.colour_scheme', message: 'unknown key "colour_scheme" ignored' },
        { path: 'presentation.slides[0].transition', message: 'unknown key "transition" ignored' },
        { path: 'presentation.slides[0].shapes[0].animation', message: 'unknown key "animation" ignored' },
      ].map((warning) => ({ ...warning, code: 'UNKNOWN_KEY' })),
    );
  });

  it('does not let a "__proto__" key reach the model', () => {
    const { request, warnings } = parsePayload(
      JSON.parse(
        '{"presentation":{"template":"t.pptx","slides":[{"slide_index":0,"__proto__":{"polluted":true}}]}}',
      ),
    );
    expect((request.slides[0] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(warnings.map((w) => w.path)).toEqual(['presentation.slides[0].__proto__']);
  });
});

describe('the root and the JSON text', () => {
  it('refuses a root that is not a payload', () => {
    expect(engineErrorOf(() => parsePayload([1])).message).toBe(
      'expected a JSON object with a "presentation" object (or the presentation fields at the root), got an array',
    );
    expect(engineErrorOf(() => parsePayload({ foo: 1 })).message).toContain('got an object with "foo"');
    expect(refusal({ presentation: null }).path).toBe('presentation');
  });

  it('parses jsonData text (with a byte order mark) and reports malformed JSON with its position', () => {
    expect(parsePayloadText('\uFEFF' + JSON.stringify(presentation({}))).request.slides).toHaveLength(1);
    const e = engineErrorOf(() =>
      parsePayloadText('{"presentation": {\n  "template": "t.pptx",\n  "slides": [1,]\n}}'),
    );
    expect(e.code).toBe('INVALID_PAYLOAD');
    expect(e.path).toBe('jsonData');
    expect(e.message).toBe(
      'jsonData: not valid JSON at line 3, column 16: unexpected "]", expected a value; remove the "," before ' +
        'this "]" (JSON allows no trailing comma)',
    );
    expect(engineErrorOf(() => parsePayloadText('  ')).message).toBe(
      'jsonData: expected a JSON document, got an empty string',
    );
  });

  it('keeps at most 1000 warnings and says how many more there were', () => {
    const slides = Array.from({ length: 600 }, () => ({ slide_index: 0, a: 1, b: 2 }));
    const { warnings } = parsePayload({ presentation: { template: 't.pptx', slides } });
    expect(warnings).toHaveLength(1001);
    expect(warnings[1000]).toEqual({ path: 'presentation', message: '200 more warnings not listed' });
  });

  it('lists every problem of a payload in one refusal, each with its path', () => {
    // What a naive client sends: no template, and slides without slide_index.
    const naive = refusal({ slides: [{ title: 'Welcome', content: 'Hello' }, { slide_index: -1 }] });
    expect(naive.path).toBeNull();
    expect(naive.message).toBe(
      '3 problems: ' +
        '(1) slides[0]: expected slide_index, slide_id or all_slides, got none of them; ' +
        '(2) slides[1].slide_index: expected an integer >= 0, got -1; ' +
        '(3) template: expected template or template_list, got none of them',
    );
    // A single problem keeps its own path, as before.
    expect(refusal(presentation({ export_version: 'x' })).path).toBe('presentation.export_version');
  });

  it('stops listing after 20 problems and says there may be more', () => {
    const slides = Array.from({ length: 50 }, () => ({ slide_index: 'first' }));
    const { message } = refusal(presentation({ slides }));
    expect(message).toMatch(
      /^20 problems \(the first ones; there may be more\): \(1\) presentation\.slides\[0\]/,
    );
    expect(message).toContain('(20) presentation.slides[19].slide_index');
    expect(message).not.toContain('slides[20]');
  });
});

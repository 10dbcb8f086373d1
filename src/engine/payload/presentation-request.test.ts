import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import { parsePayload } from './parse-payload.js';

const slide0 = { slide_index: 0 };

function presentation(fields: Record<string, unknown>): unknown {
  return { presentation: { template: 'template.pptx', slides: [slide0], ...fields } };
}

function refusal(json: unknown): { path: string | null; message: string } {
  const e = engineErrorOf(() => parsePayload(json));
  expect(e.code).toBe('INVALID_PAYLOAD');
  return { path: e.path, message: e.message };
}

describe('templates', () => {
  const list = [
    { template_id: 1, template: 'a.pptx' },
    { template_id: 'two', template_name: 'b.pptx' },
  ];

  it('normalises template_list (template_name alias, ids as strings) and slide template_id', () => {
    const { request } = parsePayload({
      presentation: {
        template_list: list,
        slides: [
          { slide_index: 0, template_id: '1' },
          { slide_index: 3, template_id: 'two' },
        ],
      },
    });
    expect(request.templates).toEqual([
      { id: '1', source: 'a.pptx', path: 'presentation.template_list[0]' },
      { id: 'two', source: 'b.pptx', path: 'presentation.template_list[1]' },
    ]);
    expect(request.slides.map((s) => s.templateId)).toEqual(['1', 'two']);
  });

  it('refuses template and template_list together, and neither', () => {
    expect(refusal({ presentation: { template: 't.pptx', template_list: list, slides: [slide0] } })).toEqual({
      path: 'presentation',
      message: 'presentation: expected only one of template, template_list, got template and template_list',
    });
    expect(refusal({ presentation: { slides: [slide0] } })).toEqual({
      path: 'presentation',
      message: 'presentation: expected template or template_list, got none of them',
    });
  });

  it('refuses a duplicate template_id (1 and "1" are the same id)', () => {
    const dup = [...list, { template_id: '1', template: 'c.pptx' }];
    expect(
      refusal({ presentation: { template_list: dup, slides: [{ slide_index: 0, template_id: 1 }] } }),
    ).toEqual({
      path: 'presentation.template_list[2].template_id',
      message: 'presentation.template_list[2].template_id: duplicate template_id "1" (also template_list[0])',
    });
  });

  it('refuses a slide without template_id, or naming no entry, when template_list is used', () => {
    const missing = refusal({
      presentation: { template_list: list, slides: [{ slide_index: 0, template_id: 1 }, slide0] },
    });
    expect(missing).toEqual({
      path: 'presentation.slides[1].template_id',
      message:
        'presentation.slides[1].template_id: expected one of the template_list ids ("1", "two"), got nothing',
    });
    const unknown = refusal({
      presentation: { template_list: list, slides: [{ slide_index: 0, template_id: 3 }] },
    });
    expect(unknown.path).toBe('presentation.slides[0].template_id');
    expect(unknown.message).toContain('got "3"');
  });

  it('ignores a slide template_id without template_list, with a warning', () => {
    const { request, warnings } = parsePayload(
      presentation({ slides: [{ slide_index: 0, template_id: 1 }] }),
    );
    expect(request.slides[0]?.templateId).toBeNull();
    expect(warnings).toEqual([
      { path: 'presentation.slides[0].template_id', message: 'template_id is ignored without template_list' },
    ]);
  });

  it('refuses a template URL with another scheme than http(s), and an empty template', () => {
    expect(refusal(presentation({ template: 'file:///etc/passwd' })).path).toBe('presentation.template');
    expect(refusal(presentation({ template: ' ' })).message).toBe(
      'presentation.template: expected an uploaded file name or an http(s) URL, got " "',
    );
  });
});

describe('slides', () => {
  it('reads type, slide_id, notes, slide tags and modes', () => {
    const { request } = parsePayload(
      presentation({
        slides: [
          {
            type: 'layout',
            slide_id: 257,
            notes: 'Say hello\nthen goodbye',
            tags: [{ key: 'k', value: 'v' }],
            tag_validation_mode: 'lenient',
            shape_validation_mode: 'strict',
          },
        ],
      }),
    );
    const slide = request.slides[0];
    expect(slide?.kind).toBe('layout');
    expect(slide?.select).toEqual({ by: 'id', id: 257 });
    expect(slide?.notes?.paragraphs.map((p) => p.runs.map((r) => r.text).join(''))).toEqual([
      'Say hello',
      'then goodbye',
    ]);
    expect(slide?.tags).toEqual([{ key: 'k', value: 'v' }]);
    expect([slide?.tagValidation, slide?.shapeValidation]).toEqual(['lenient', 'strict']);
  });

  it('accepts notes as runs', () => {
    const { request } = parsePayload(
      presentation({
        slides: [{ slide_index: 0, notes: [{ text_run: 'Bold', text_properties: { font_bold: true } }] }],
      }),
    );
    expect(request.slides[0]?.notes).toEqual({
      kind: 'text',
      fromRuns: true,
      paragraphs: [{ props: {}, runs: [{ text: 'Bold', props: { bold: true } }] }],
    });
  });

  it('refuses what the spec refuses, naming the path', () => {
    const cases: [unknown, string, string][] = [
      [
        presentation({ slides: [] }),
        'presentation.slides',
        'expected a non-empty array of slide objects, got an array',
      ],
      [{ presentation: { template: 't.pptx' } }, 'presentation.slides', 'got nothing'],
      [
        presentation({ slides: [{ slide_index: 'abc' }] }),
        'presentation.slides[0].slide_index',
        'expected an integer >= 0, got "abc"',
      ],
      [presentation({ slides: [{ slide_index: 1.5 }] }), 'presentation.slides[0].slide_index', 'got 1.5'],
      [
        presentation({ slides: [{}] }),
        'presentation.slides[0]',
        'expected slide_index, slide_id or all_slides, got none of them',
      ],
      [
        presentation({ slides: [{ slide_index: 0, slide_id: 256 }] }),
        'presentation.slides[0]',
        'only one of slide_index, slide_id',
      ],
      [
        presentation({ slides: [{ slide_index: 0, type: 'master' }] }),
        'presentation.slides[0].type',
        'expected one of "slide", "layout"',
      ],
      [
        presentation({ slides: [{ slide_index: 0, shapes: {} }] }),
        'presentation.slides[0].shapes',
        'expected an array of shape objects, got an object',
      ],
      [
        presentation({ slides: [{ slide_index: 0, notes: 5 }] }),
        'presentation.slides[0].notes',
        'expected a string, an array of runs',
      ],
      [
        presentation({ tag_validation_mode: 'loose' }),
        'presentation.tag_validation_mode',
        'expected one of "strict", "lenient"',
      ],
      [
        presentation({ tags: [{ key: 'a' }] }),
        'presentation.tags[0]',
        'expected value or Value, got none of them',
      ],
      [
        presentation({ tags: [{ key: 'a', value: true }] }),
        'presentation.tags[0].value',
        'expected a string, a number or a typed value {number|date, format}, got true',
      ],
      [
        presentation({ tags: [{ key: '{{}}', value: 'x' }] }),
        'presentation.tags[0].key',
        'expected a non-empty tag key',
      ],
      [
        presentation({ slides: [slide0, 'slide'] }),
        'presentation.slides[1]',
        'expected a slide object, got "slide"',
      ],
    ];
    for (const [json, path, text] of cases) {
      const r = refusal(json);
      expect(r.path, text).toBe(path);
      expect(r.message.startsWith(`${path}: `), r.message).toBe(true);
      expect(r.message).toContain(text);
    }
  });
});

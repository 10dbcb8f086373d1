/**
 * The published JSON Schema is generated from the same specs that validate, so these tests check that it is a
 * valid draft 2020-12 schema and that it agrees with the parser on payloads of every kind. Ajv comes with
 * fastify (the HTTP layer's validator), so the check uses the validator the service itself would use.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parsePayload, payloadJsonSchema, payloadJsonSchemaParts } from './parse-payload.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validate = ajv.compile(payloadJsonSchema);

const full = {
  presentation: {
    template: 'template.pptx',
    export_version: 'pptx2013',
    resultFileName: 'Quarterly review',
    tags: [
      { key: 'name', value: 'Ada' },
      { Key: 'year', Value: 2026 },
    ],
    tag_validation_mode: 'strict',
    slides: [
      {
        type: 'slide',
        slide_index: 0,
        notes: [{ text_run: 'Notes', text_properties: { font_bold: true } }],
        shapes: [
          {
            name: 'Title',
            content: 'Hello',
            settings: [{ left: 1, top: 2, unit: 'cm', fill_color: 'RGB(1,2,3)' }],
          },
          {
            shapeId: '4',
            text: [
              {
                text_run: 'a',
                text_properties: { font_size: 12, font_underline: 'Single', text_line_spacing: 1.5 },
              },
              {
                text_run: 'b',
                text_properties: { new_line: true, text_line_spacing: 24, baseline: 'subscript' },
              },
            ],
          },
          { name: 'Logo', filename: 'logo.png', fit: 'cover', is_hidden: null },
          {
            name: 'Table',
            data_cells: [
              ['a', 1, null, { text_runs: [{ text_run: 'x' }], cell_properties: { vertical_align: 'top' } }],
            ],
          },
          {
            name: 'Chart',
            data: [['s1', 's2'], ['c1'], [1, '2']],
            settings: { chartLegendPosition: 'Bottom' },
            overlays: [['+1']],
          },
          { name: 'Chart 2', content: { categories: ['a'], series: [{ name: 'S', values: [null] }] } },
        ],
      },
      { type: 'layout', slide_id: 300, tags: [] },
    ],
  },
};

describe('payloadJsonSchema', () => {
  it('is a draft 2020-12 schema describing the envelope', () => {
    const schema = payloadJsonSchema as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(ajv.validateSchema(schema)).toBe(true);
    const defs = schema.$defs as Record<
      string,
      { properties?: Record<string, unknown>; required?: string[] }
    >;
    expect(Object.keys(defs.Presentation?.properties ?? {})).toEqual([
      'template',
      'template_list',
      'locale',
      'export_version',
      'resultFileName',
      'slides',
      'tags',
      'tag_validation_mode',
      'shape_validation_mode',
      'accessibility',
      'theme',
      'fonts',
      'masters',
      'layouts',
    ]);
    expect(defs.Presentation?.required).toEqual(['slides']);
    expect(Object.keys(defs.Shape?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'name',
        'shapeId',
        'content',
        'text',
        'filename',
        'data_cells',
        'data',
        'settings',
      ]),
    );
    expect(Object.keys(defs.TextProperties?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'font_size',
        'font_underline',
        'text_line_spacing',
        'bullet_indent_level',
        'baseline',
      ]),
    );
    expect(Object.isFrozen(schema)).toBe(true);
  });

  it('accepts what the parser accepts', () => {
    const accepted = [
      full,
      full.presentation, // the fields at the root
      {
        presentation: {
          template_list: [{ template_id: 1, template_name: 'a.pptx' }],
          slides: [{ slide_index: 0, template_id: 1 }],
        },
      },
      {
        presentation: {
          template_list: [{ template_id: 'a', template: 'a.pptx', theme: { colors: { Accent2: 'teal' } } }],
          theme: {
            colors: { accent1: '#FF6600', FOLHLINK: '1,2,3' },
            fonts: { major: 'Liberation Serif', minor: { latin: 'Carlito', ea: 'Noto Sans CJK JP' } },
          },
          fonts: ['Brand-Regular.ttf', { file: 'Brand-Bold.ttf' }],
          masters: [
            { template_id: 'a', index: 0, shapes: [{ name: 'Logo', content: 'logo.png' }], tags: [] },
          ],
          layouts: [{ template_id: 'a', index: 3, shape_validation_mode: 'strict' }],
          slides: [{ slide_index: 0, template_id: 'a' }],
        },
      },
    ];
    for (const payload of accepted) {
      expect(() => parsePayload(payload)).not.toThrow();
      expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('rejects what the parser refuses', () => {
    const p = (fields: Record<string, unknown>) => ({
      presentation: { template: 't.pptx', slides: [{ slide_index: 0 }], ...fields },
    });
    const shape = (s: Record<string, unknown>) =>
      p({ slides: [{ slide_index: 0, shapes: [{ name: 'A', ...s }] }] });
    const refused = [
      p({ slides: [] }),
      p({ template_list: [{ template_id: 1, template: 'a.pptx' }] }),
      { presentation: { slides: [{ slide_index: 0 }] } },
      p({ export_version: 'Pptx2007' }),
      p({ slides: [{ slide_index: 'abc' }] }),
      p({ slides: [{}] }),
      p({ slides: [{ slide_index: 0, slide_id: 256 }] }),
      p({ tags: [{ key: 'a' }] }),
      shape({ content: 5 }),
      shape({ content: 'x', text: 'y' }),
      shape({ text: [{ text_run: 'x', text_properties: { font_size: 5000 } }] }),
      shape({ text: [{ text_run: 'x', text_properties: { bullet_indent_level: 9 } }] }),
      shape({ text: [{ text_run: 'x', text_properties: { font_underline: 'triple' } }] }),
      shape({ text: [{ text_run: 'x', text_properties: { font_color: '#12' } }] }),
      shape({ settings: { unit: 'furlong' } }),
      shape({ settings: [{}, {}] }),
      shape({ fit: 'zoom', filename: 'a.png' }),
      shape({ data_cells: [] }),
      p({ theme: {} }),
      p({ theme: { colors: { accent7: '#FF0000' } } }),
      p({ theme: { colors: { accent1: 'not a colour!' } } }),
      p({ theme: { fonts: { minor: {} } } }),
      p({ fonts: [{}] }),
      p({ fonts: [{ file: '' }] }),
      p({ masters: [{ shapes: [] }] }),
      p({ layouts: [{ index: -1 }] }),
    ];
    for (const payload of refused) {
      expect(() => parsePayload(payload), JSON.stringify(payload)).toThrow();
      expect(validate(payload), JSON.stringify(payload)).toBe(false);
    }
  });

  it('still resolves its references when embedded in another document, whole or hoisted', () => {
    const bad = { presentation: { template: 't.pptx', slides: [{ slide_index: -1 }] } };
    const embedded = new Ajv2020({ strict: false });
    embedded.addSchema({ $id: 'urn:test:openapi', components: { schemas: { JsonData: payloadJsonSchema } } });
    const viaEmbedded = embedded.compile({ $ref: 'urn:test:openapi#/components/schemas/JsonData' });
    expect(viaEmbedded(full)).toBe(true);
    expect(viaEmbedded(bad)).toBe(false);

    const { schema, definitions } = payloadJsonSchemaParts('urn:test:hoisted#/components/schemas/');
    const hoisted = new Ajv2020({ strict: false });
    hoisted.addSchema({
      $id: 'urn:test:hoisted',
      components: { schemas: { JsonData: schema, ...definitions } },
    });
    const viaHoisted = hoisted.compile({ $ref: 'urn:test:hoisted#/components/schemas/JsonData' });
    expect(Object.keys(definitions)).toContain('Presentation');
    expect(viaHoisted(full)).toBe(true);
    expect(viaHoisted(bad)).toBe(false);
  });
});

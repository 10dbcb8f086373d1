/**
 * OpenAPI schemas of the inspection result (`POST /v1.0/template/inspect`, `deckforge inspect --json`), written
 * from the engine's types in inspect.ts: each shape's name, kind, text, placeholder and its box on the slide, and
 * its content in the payload's words (text paragraphs and runs, every table cell, a chart's cached data).
 */
import { SHAPE_KIND_NAMES } from '../../engine/index.js';

const ref = (name: string): Record<string, string> => ({ $ref: `#/components/schemas/${name}` });
const integer = { type: 'integer' };
const nullable = (schema: Record<string, unknown>) => ({ oneOf: [schema, { type: 'null' }] });
const strings = { type: 'array', items: { type: 'string' } };
const numbersOrGaps = { type: 'array', items: { type: ['number', 'null'] } };

export const INSPECT_SCHEMAS: Record<string, unknown> = {
  InspectResult: {
    type: 'object',
    required: ['slideSize', 'slides', 'layouts', 'masters'],
    properties: {
      slideSize: {
        ...nullable({ type: 'object', required: ['cx', 'cy'], properties: { cx: integer, cy: integer } }),
        description: 'Width and height of every slide, in EMU (914400 per inch).',
      },
      slides: { type: 'array', items: ref('InspectedSlide') },
      layouts: { type: 'array', items: ref('InspectedLayout') },
      masters: { type: 'array', items: ref('InspectedMaster') },
    },
  },
  InspectedSlide: {
    type: 'object',
    required: ['index', 'id', 'layout', 'hidden', 'shapes', 'notes', 'tags', 'xmlBytes'],
    properties: {
      index: { ...integer, description: 'Zero-based, as `slide_index` in the payload.' },
      id: integer,
      layout: { type: ['string', 'null'], description: 'Name of the layout the slide uses.' },
      hidden: { type: 'boolean' },
      shapes: { type: 'array', items: ref('InspectedShape') },
      notes: { type: ['string', 'null'] },
      tags: { type: 'array', items: { type: 'string' } },
      xmlBytes: { ...integer, description: 'Size of the slide part, uncompressed.' },
    },
  },
  InspectedLayout: {
    type: 'object',
    required: ['index', 'name', 'master', 'shapes'],
    properties: {
      index: { ...integer, description: 'As `slide_index` with `"type": "layout"`, and `layouts[].index`.' },
      name: { type: 'string' },
      master: { ...integer, description: 'The index of its slide master in `masters`.' },
      shapes: { type: 'array', items: ref('InspectedShape') },
    },
  },
  InspectedMaster: {
    type: 'object',
    required: ['index', 'name', 'shapes'],
    properties: {
      index: { ...integer, description: 'As `masters[].index` in the payload: presentation.xml’s order.' },
      name: { type: 'string', description: 'The master’s name, else its theme’s.' },
      shapes: { type: 'array', items: ref('InspectedShape') },
    },
  },
  InspectedShape: {
    type: 'object',
    required: ['name', 'id', 'kind', 'text', 'tags', 'placeholder', 'group', 'box'],
    properties: {
      name: { type: 'string', description: 'What `shapes[].name` in the payload refers to.' },
      id: integer,
      kind: { enum: SHAPE_KIND_NAMES },
      text: { type: 'string', description: 'Paragraphs joined with a line feed.' },
      tags: { type: 'array', items: { type: 'string' } },
      placeholder: nullable({
        type: 'object',
        required: ['type', 'idx'],
        properties: { type: { type: 'string' }, idx: { type: ['integer', 'null'] } },
      }),
      group: { type: ['string', 'null'], description: 'Name of the group the shape sits in.' },
      box: {
        ...nullable(ref('ShapeBox')),
        description:
          'Position and size on the slide: the shape’s own, or inherited from its layout or master ' +
          'placeholder, through its groups’ transforms. Null when nothing gives it a position.',
      },
      frame: nullable({
        type: 'object',
        description: 'Pictures and picture placeholders: the frame an image goes into, at 96 dpi.',
        required: ['widthPx', 'heightPx', 'aspectRatio'],
        properties: { widthPx: integer, heightPx: integer, aspectRatio: { type: 'number' } },
      }),
      chart: {
        type: 'object',
        required: ['types', 'series', 'categories', 'workbook'],
        properties: {
          types: { type: 'array', items: { type: 'string' } },
          series: { type: 'array', items: { type: 'string' } },
          categories: integer,
          workbook: { enum: ['embedded', 'linked', 'missing'] },
          data: ref('InspectedChartData'),
        },
      },
      table: {
        type: 'object',
        required: ['rows', 'columns', 'headerRow', 'merges', 'firstRow', 'cells'],
        properties: {
          rows: integer,
          columns: integer,
          headerRow: { type: 'boolean' },
          merges: {
            type: 'array',
            items: {
              type: 'object',
              required: ['row', 'column', 'rowSpan', 'columnSpan'],
              properties: { row: integer, column: integer, rowSpan: integer, columnSpan: integer },
            },
          },
          firstRow: strings,
          cells: {
            type: 'array',
            items: strings,
            description: 'Text of every cell, row by row, one per grid column; "" for a cell a merge covers.',
          },
        },
      },
      smartart: {
        type: 'object',
        required: ['nodes'],
        description:
          "SmartArt: each node's text in the order of its text pane (what `content` fills, one string each; " +
          'docs/payload.md, SmartArt), with its level below the top (0).',
        properties: {
          nodes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['text', 'level'],
              properties: { text: { type: 'string' }, level: integer },
            },
          },
        },
      },
      paragraphs: {
        type: 'array',
        description:
          'Text shapes: each paragraph’s runs with the `text_properties` the run sets (docs/payload.md, Text). ' +
          'A soft line break is \\v.',
        items: {
          type: 'object',
          required: ['runs'],
          properties: {
            runs: {
              type: 'array',
              items: {
                type: 'object',
                required: ['text', 'text_properties'],
                properties: { text: { type: 'string' }, text_properties: ref('InspectedTextProperties') },
              },
            },
          },
        },
      },
    },
  },
  InspectedTextProperties: {
    type: 'object',
    additionalProperties: false,
    properties: {
      font_type: { type: 'string' },
      font_size: { type: 'number', description: 'Points.' },
      font_bold: { type: 'boolean' },
      font_italic: { type: 'boolean' },
      font_strike: { type: 'boolean' },
      font_underline: { type: 'string' },
      font_color: { type: 'string', pattern: '^#[0-9A-F]{6}$' },
      font_bg_color: { type: 'string', pattern: '^#[0-9A-F]{6}$' },
      baseline: { enum: ['superscript', 'subscript'] },
      hyperlink: { type: 'string' },
    },
  },
  InspectedChartData: {
    description:
      'A classic chart’s data from its caches, as a chart’s `content` takes it: categories and values, or x, y ' +
      '(and size) for scatter and bubble series; null is a gap.',
    oneOf: [
      {
        type: 'object',
        required: ['categories', 'series'],
        properties: {
          categories: { type: 'array', items: { type: ['string', 'number'] } },
          series: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'values'],
              properties: { name: { type: 'string' }, values: numbersOrGaps },
            },
          },
        },
      },
      {
        type: 'object',
        required: ['series'],
        not: { required: ['categories'] },
        properties: {
          series: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'x', 'y'],
              properties: {
                name: { type: 'string' },
                x: numbersOrGaps,
                y: numbersOrGaps,
                size: numbersOrGaps,
              },
            },
          },
        },
      },
    ],
  },
  ShapeBox: {
    type: 'object',
    description:
      'A rectangle on the slide in EMU (914400 per inch, 12700 per point), from its top-left corner.',
    required: ['x', 'y', 'cx', 'cy'],
    properties: { x: integer, y: integer, cx: integer, cy: integer },
  },
};

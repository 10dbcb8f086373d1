/**
 * One entry of `slides[].shapes` (docs/payload.md "Shapes"): the target (`name` or `shapeId`), the common fields
 * and what to fill in. `content` takes every natural form; the hosted API's per-kind keys are aliases:
 * `text` (text), `filename` (picture), `data_cells` (table), `data` (chart matrix). Only one of them may be given.
 */
import type {
  ChartContent,
  ChartSettings,
  ContentField,
  ListContent,
  PictureContent,
  ShapeContent,
  ShapeRequest,
  ShapeSettings,
  TableContent,
  TextContent,
} from './model.js';
import {
  attachOverlays,
  CHART_EXPECTED,
  chartMatrixSpec,
  chartObjectSpec,
  overlaysSpec,
} from './chart-content.js';
import { object } from './object-builder.js';
import { settingsSpec } from './shape-settings.js';
import {
  arrayOf,
  boolean,
  custom,
  described,
  enumOf,
  fail,
  refuse,
  isRecord,
  named,
  number,
  string,
  transform,
  byJsonType,
  type Spec,
} from './schema-builders.js';
import { MAX_TABLE_ROWS, TABLE_ROWS_EXPECTED, tableRowsSpec } from './table-content.js';
import { RUNS_EXPECTED, runsSpec, singleRunSpec, textSpec, typedTextSpec } from './text-content.js';
import { isTypedValue, TYPED_VALUE_EXPECTED, typedValueSpec } from './typed-value.js';

const LIST_EXPECTED = 'an array of strings (SmartArt: one per node)';
const CONTENT_EXPECTED = `a string, ${RUNS_EXPECTED}, ${TABLE_ROWS_EXPECTED}, ${LIST_EXPECTED}, ${CHART_EXPECTED} or ${TYPED_VALUE_EXPECTED}`;

/**
 * Texts one SmartArt takes (docs/payload.md, SmartArt). It bounds the work of one graphic: every node added is
 * laid out with the others, and a graphic of more nodes than this is no longer readable on a slide.
 */
export const MAX_DIAGRAM_NODES = 1_000;

/** The refusal of a SmartArt's texts past MAX_DIAGRAM_NODES. */
export function tooManyDiagramTexts(count: number): string {
  return `${count} texts is more than a SmartArt takes (at most ${MAX_DIAGRAM_NODES}); split them over several graphics or slides`;
}

/** SmartArt node texts: each item a string, a typed value or an array of runs. */
const listSpec: Spec<ListContent> = transform(
  arrayOf(textSpec, { expected: LIST_EXPECTED, maxItems: MAX_DIAGRAM_NODES, tooMany: tooManyDiagramTexts }),
  (items): ListContent => ({ kind: 'list', items }),
);

/**
 * `content`: a string stays ambiguous (text, or a picture's file name) until the template shape is known;
 * an array is runs when its items are objects and table rows when they are arrays; an object is a chart
 * (or a single run).
 */
const contentSpec: Spec<ShapeContent> = {
  expected: CONTENT_EXPECTED,
  parse(value, ctx) {
    if (typeof value === 'string') return { kind: 'string', value };
    if (Array.isArray(value)) {
      const first: unknown = value[0];
      if (Array.isArray(first)) return tableRowsSpec.parse(value, ctx);
      if (typeof first === 'string' || (isRecord(first) && isTypedValue(first)))
        return listSpec.parse(value, ctx);
      if (first === undefined || isRecord(first)) return runsSpec.parse(value, ctx);
      return fail(
        ctx,
        'a run object {text_run, text_properties}, a table row (an array of cells) or a string',
        first,
        0,
      );
    }
    if (isRecord(value)) {
      if (isTypedValue(value)) return typedTextSpec.parse(value, ctx);
      if ('text_run' in value) return singleRunSpec.parse(value, ctx);
      if (!CHART_KEYS.some((key) => key in value)) refuse(ctx, unknownObjectMessage(value));
      return chartObjectSpec.parse(value, ctx);
    }
    return fail(ctx, CONTENT_EXPECTED, value);
  },
  toJsonSchema(defs) {
    return {
      description: CONTENT_EXPECTED,
      anyOf: [
        { type: 'string' },
        runsSpec.toJsonSchema(defs),
        tableRowsSpec.toJsonSchema(defs),
        listSpec.toJsonSchema(defs),
        chartObjectSpec.toJsonSchema(defs),
        typedValueSpec.toJsonSchema(defs),
      ],
    };
  },
};

/** Keys that make an object chart data; an object with none of them is no content form at all. */
const CHART_KEYS = ['categories', 'series', 'data', 'overlays'];

/**
 * An object with neither chart keys nor `text_run` (`{"text": "x"}`, most often meant for a text shape): says
 * what each kind of shape takes, with the object's own text where it has one.
 */
function unknownObjectMessage(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  const got =
    keys.length === 0
      ? 'an empty object'
      : `an object with ${keys
          .slice(0, 5)
          .map((k) => `"${k}"`)
          .join(', ')}`;
  const text = Object.values(value).find((v) => typeof v === 'string');
  const example = JSON.stringify(typeof text === 'string' && text.length <= 40 ? text : '…');
  return (
    `got ${got}, which is no content form: a text shape takes a string ("content": ${example}) or an ` +
    `array of runs ([{"text_run": ${example}}]); a table an array of rows; a picture a file name, URL or ` +
    'data: URI; a chart an object {categories, series}'
  );
}

/** Where a shape's content may be given: `content`, or one of the hosted API's per-kind keys. */
const CONTENT_FIELDS: readonly ContentField[] = ['content', 'text', 'filename', 'data_cells', 'data'];

const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;
const DATA_URI = /^data:[^,]*,/i;
const PICTURE_EXPECTED = 'an uploaded file name, an http(s) URL or a data: URI';

/** Other URL schemes (file://, ftp://) are refused here rather than mistaken for a file name later. */
export const pictureSourceSpec = custom<string>(
  PICTURE_EXPECTED,
  { type: 'string', minLength: 1, description: PICTURE_EXPECTED },
  (value, ctx) => {
    if (typeof value !== 'string' || value.length === 0) fail(ctx, PICTURE_EXPECTED, value);
    const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') fail(ctx, PICTURE_EXPECTED, value);
    if (/^data:/i.test(value) && !DATA_URI.test(value))
      refuse(ctx, 'the data: URI has no comma before its data (expected data:[<type>][;base64],<data>)');
    return value;
  },
);

const SHAPE_ID_EXPECTED = 'a shape id (an integer >= 0 or a numeric string)';
const shapeIdSpec: Spec<number> = byJsonType(SHAPE_ID_EXPECTED, {
  number: number({ min: 0, max: 4294967295, integer: true }),
  string: custom(SHAPE_ID_EXPECTED, { type: 'string', pattern: '^\\s*\\d+\\s*$' }, (value, ctx) => {
    const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!(n <= 4294967295)) fail(ctx, SHAPE_ID_EXPECTED, value);
    return n;
  }),
});

const overflowSpec = enumOf<TableContent['overflow']>({ warn: 'warn', continue: 'continue' });
const unspecifiedCellsSpec = enumOf<'keep' | 'clear'>({ keep: 'keep', clear: 'clear' });

/** The shape-level keys that only mean something beside table rows. */
const TABLE_KEYS = ['overflow', 'header_rows', 'unspecified_cells'] as const;

type Fit = PictureContent['fit'];
const fitSpec = enumOf<Fit>({ contain: 'contain', cover: 'cover', stretch: 'stretch' });

/** Older shape-level spellings of chart settings. */
function withChartAliases(
  settings: ShapeSettings | null,
  aliases: { title?: string; categoryTitle?: string; valueTitle?: string },
): ShapeSettings | null {
  if (
    aliases.title === undefined &&
    aliases.categoryTitle === undefined &&
    aliases.valueTitle === undefined
  ) {
    return settings;
  }
  const chart: ChartSettings = {};
  if (aliases.title !== undefined) chart.title = aliases.title;
  if (aliases.categoryTitle !== undefined) chart.categoryAxisTitle = aliases.categoryTitle;
  if (aliases.valueTitle !== undefined) chart.valueAxisTitle = aliases.valueTitle;
  // Keys given in `settings` win over the older shape-level ones.
  return { ...settings, chart: { ...chart, ...settings?.chart } };
}

function isEmptyText(text: TextContent | null): boolean {
  return text === null || text.paragraphs.every((p) => p.runs.every((r) => r.text === ''));
}

/** What `remove_if_empty` counts as nothing to show (docs/payload.md, Shapes). */
function isEmptyContent(content: ShapeContent | null): boolean {
  if (content === null) return true;
  switch (content.kind) {
    case 'string':
      return content.value === '';
    case 'text':
      return isEmptyText(content);
    case 'list':
      return content.items.every(isEmptyText);
    case 'table':
      return content.rows.every((row) => row.every((cell) => isEmptyText(cell.text)));
    case 'chart':
      return content.series.every((s) => (s.values ?? s.y ?? []).every((v) => v === null));
    case 'picture':
      return content.source === '';
  }
}

export const shapeSpec: Spec<ShapeRequest> = named(
  'Shape',
  object(
    'a shape object',
    {
      name: described("The shape's name in the selection pane (p:cNvPr/@name)", string({ minLength: 1 })),
      shapeId: described('Alternative to name: p:cNvPr/@id', shapeIdSpec),
      is_hidden: described('Hide the shape', boolean()),
      remove: described('Delete the shape (and its animations)', boolean()),
      remove_if_empty: described(
        'Delete the shape when its content is empty: absent or null, "", runs without text, a table without ' +
          'text in any cell, a chart without a value in any series; with content it is filled as usual',
        boolean(),
      ),
      settings: settingsSpec,
      content: contentSpec,
      text: described('Text (older spelling of content for text shapes)', textSpec),
      filename: described('Picture source (older spelling of content for pictures)', pictureSourceSpec),
      data_cells: described('Table rows (older spelling of content for tables)', tableRowsSpec),
      data: described("Chart data in the hosted API's matrix form", chartMatrixSpec),
      fit: described('Picture fit: contain (default), cover or stretch', fitSpec),
      alt_text: described(
        "Description for screen readers (p:cNvPr/@descr); replaces the template's",
        string(),
      ),
      alt_title: described(
        "Title for screen readers (p:cNvPr/@title); replaces the template's. Not `title`, which names a chart's title",
        string(),
      ),
      overflow: described(
        'Tables: rows that do not fit on the slide give a warning ("warn", default), or go onto copies of the ' +
          'slide inserted right after it ("continue"), each repeating the header rows',
        overflowSpec,
      ),
      header_rows: described(
        'Tables: how many of the first rows are the header, repeated on every continuation slide (default 1 ' +
          "when the table's first-row flag is set, else 0)",
        number({ min: 0, max: MAX_TABLE_ROWS, integer: true }),
      ),
      unspecified_cells: described(
        'Tables: cells a row does not list (a row shorter than the grid) keep the template\'s text ("keep", ' +
          'default, with a warning naming them unless given) or are emptied ("clear")',
        unspecifiedCellsSpec,
      ),
      overlays: described("Per series, per point: text appended to the point's data label", overlaysSpec),
      title: described('Older spelling of settings.title (chart title)', string()),
      categoryTitle: described('Older spelling of settings.category_axis_title', string()),
      valueTitle: described('Older spelling of settings.value_axis_title', string()),
    },
    (f, ctx): ShapeRequest => {
      let content: ShapeContent | null = f.content ?? f.text ?? f.data_cells ?? f.data ?? null;
      const contentField = CONTENT_FIELDS.find((key) => f[key] !== undefined) ?? 'content';
      if (f.filename !== undefined)
        content = { kind: 'picture', source: f.filename, fit: f.fit ?? 'contain' };
      else if (f.fit !== undefined) {
        // `fit` only means something for a picture, so a string with `fit` names one.
        if (content?.kind === 'string') {
          ctx.enter('content');
          const source = pictureSourceSpec.parse(content.value, ctx);
          content = { kind: 'picture', source, fit: f.fit };
          ctx.leave();
        } else {
          ctx.warn('fit applies to pictures only; ignored', 'fit');
        }
      }
      const tableKey = TABLE_KEYS.find((key) => f[key] !== undefined);
      if (tableKey !== undefined) {
        if (content?.kind === 'table') {
          content = {
            ...content,
            overflow: f.overflow ?? 'warn',
            headerRows: f.header_rows ?? null,
            unspecifiedCells: f.unspecified_cells ?? null,
          };
        } else {
          ctx.warn(`${tableKey} applies to table rows given with this shape; ignored`, tableKey);
        }
      }
      if (f.overlays !== undefined) {
        if (content?.kind === 'chart' && content.overlays === undefined) {
          content = attachOverlays(content as ChartContent, f.overlays, ctx, 'overlays');
        } else {
          ctx.warn('overlays apply to chart data given with this shape (and not twice); ignored', 'overlays');
        }
      }
      // An optional shape with nothing to show goes, as `remove` would take it.
      const dropped = f.remove_if_empty === true && isEmptyContent(content);
      return {
        path: ctx.path(),
        target: f.name !== undefined ? { by: 'name', name: f.name } : { by: 'id', id: f.shapeId as number },
        hidden: f.is_hidden ?? null,
        remove: (f.remove ?? false) || dropped,
        settings: withChartAliases(f.settings ?? null, f),
        content: dropped ? null : content,
        contentField,
        ...(f.alt_text !== undefined ? { altText: f.alt_text } : {}),
        ...(f.alt_title !== undefined ? { altTitle: f.alt_title } : {}),
      };
    },
    {
      oneRequired: [['name', 'shapeId']],
      exclusive: [
        ['name', 'shapeId'],
        ['content', 'text', 'filename', 'data_cells', 'data'],
      ],
    },
  ),
);

/**
 * What `describe_template` gives an agent (docs/mcp.md, "describe_template"): the engine's inspect result
 * (src/engine/inspect.ts) cut to what filling a template needs — each shape's name, kind, placeholder type, text,
 * box, text capacity, table grid, chart types with series and categories, SmartArt nodes — in the tools'
 * snake_case, and the JSON Schema of the `jsonData` this template accepts (template-schema.ts).
 */
import type { InspectedShape, InspectResult } from '../engine/index.js';
import type { TemplateSummary } from './tool-backend.js';
import { templateJsonSchema } from './template-schema.js';

export interface DescribedShape {
  name: string;
  /** `p:cNvPr/@id`: jsonData's `shapeId` (docs/payload.md, "Shapes"). */
  id: number;
  /**
   * What a `jsonData` shape entry writes to reach exactly this shape: `{name}` when no other shape of the slide
   * has that name, `{shapeId}` when another has (a name reaches the first in document order only), null when
   * its id is shared too and nothing reaches it alone.
   */
  target: { name: string } | { shapeId: number } | null;
  kind: InspectedShape['kind'];
  /** The OOXML placeholder type (`ctrTitle`, `title`, `body`, `pic`, …), null for a shape that is none. */
  placeholder: string | null;
  text: string;
  tags: string[];
  group: string | null;
  /** EMU (914 400 per inch). */
  box: { x: number; y: number; cx: number; cy: number } | null;
  /** Text shapes: what fits at the template's own font and size; null when it cannot be told. */
  capacity?: { chars: number; lines: number; chars_per_line: number } | null;
  table?: {
    rows: number;
    columns: number;
    header_row: boolean;
    first_row: string[];
    merges: { row: number; column: number; row_span: number; column_span: number }[];
  };
  chart?: {
    types: string[];
    series: string[];
    /**
     * The form of `content`: `categories` is {categories, series: [{name, values}]}; `xy` (scatter) is
     * {series: [{name, x, y}]}; `bubble` is {series: [{name, x, y, size}]} (docs/payload-charts.md).
     */
    form: 'categories' | 'xy' | 'bubble';
    /** What each series of `content.series` holds, by the form: the fields a series must have. */
    series_fields: string[];
    categories: (string | number)[];
    category_count: number;
  };
  smartart?: { nodes: { text: string; level: number }[] };
  picture_frame?: { width_px: number; height_px: number; aspect_ratio: number } | null;
}

export interface TemplateDescription {
  template: TemplateSummary;
  slide_size: { cx: number; cy: number } | null;
  slides: {
    index: number;
    layout: string | null;
    hidden: boolean;
    tags: string[];
    notes: string | null;
    shapes: DescribedShape[];
  }[];
  layouts: { index: number; name: string; shapes: DescribedShape[] }[];
  schema: Record<string, unknown>;
}

export function describeTemplate(template: TemplateSummary, inspect: InspectResult): TemplateDescription {
  return {
    template,
    slide_size: inspect.slideSize,
    slides: inspect.slides.map((slide) => ({
      index: slide.index,
      layout: slide.layout,
      hidden: slide.hidden,
      tags: slide.tags,
      notes: slide.notes,
      shapes: describeShapes(slide.shapes),
    })),
    layouts: inspect.layouts.map((layout) => ({
      index: layout.index,
      name: layout.name,
      shapes: describeShapes(layout.shapes),
    })),
    schema: templateJsonSchema(template, inspect),
  };
}

/** The fields of a series in each form of a chart's `content`. */
const SERIES_FIELDS: Record<NonNullable<DescribedShape['chart']>['form'], string[]> = {
  categories: ['name', 'values'],
  xy: ['name', 'x', 'y'],
  bubble: ['name', 'x', 'y', 'size'],
};

function describeShapes(shapes: readonly InspectedShape[]): DescribedShape[] {
  const count = (values: readonly (string | number)[], value: string | number): number =>
    values.filter((v) => v === value).length;
  const names = shapes.map((shape) => shape.name);
  const ids = shapes.map((shape) => shape.id);
  return shapes.map((shape) => {
    const target =
      count(names, shape.name) === 1
        ? { name: shape.name }
        : count(ids, shape.id) === 1
          ? { shapeId: shape.id }
          : null;
    return describeShape(shape, target);
  });
}

/** A bubble chart's series need a size besides x and y (charts/series-targets.ts); its type names it. */
function chartForm(
  chart: NonNullable<InspectedShape['chart']>,
): NonNullable<DescribedShape['chart']>['form'] {
  if (chart.types.some((type) => type.startsWith('bubble'))) return 'bubble';
  return chart.data !== undefined && !('categories' in chart.data) ? 'xy' : 'categories';
}

function describeShape(shape: InspectedShape, target: DescribedShape['target']): DescribedShape {
  const described: DescribedShape = {
    name: shape.name,
    id: shape.id,
    target,
    kind: shape.kind,
    placeholder: shape.placeholder?.type ?? null,
    text: shape.text,
    tags: shape.tags,
    group: shape.group,
    box: shape.box,
  };
  if (shape.capacity !== undefined) {
    const capacity = shape.capacity;
    described.capacity = capacity && {
      chars: capacity.chars,
      lines: capacity.lines,
      chars_per_line: capacity.charsPerLine,
    };
  }
  if (shape.table) {
    const { rows, columns, headerRow, firstRow, merges } = shape.table;
    described.table = {
      rows,
      columns,
      header_row: headerRow,
      first_row: firstRow,
      merges: merges.map((m) => ({
        row: m.row,
        column: m.column,
        row_span: m.rowSpan,
        column_span: m.columnSpan,
      })),
    };
  }
  if (shape.chart) {
    const { types, series, categories, data } = shape.chart;
    const form = chartForm(shape.chart);
    described.chart = {
      types,
      series,
      form,
      series_fields: SERIES_FIELDS[form],
      categories: data && 'categories' in data ? data.categories : [],
      category_count: categories,
    };
  }
  if (shape.smartart) described.smartart = shape.smartart;
  if (shape.frame !== undefined) {
    described.picture_frame = shape.frame && {
      width_px: shape.frame.widthPx,
      height_px: shape.frame.heightPx,
      aspect_ratio: shape.frame.aspectRatio,
    };
  }
  return described;
}

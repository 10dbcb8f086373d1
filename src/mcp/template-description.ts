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
    /** `categories`: content is {categories, series: [{name, values}]}; `xy`: series of {name, x, y} (and `size`). */
    form: 'categories' | 'xy';
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
      shapes: slide.shapes.map(describeShape),
    })),
    layouts: inspect.layouts.map((layout) => ({
      index: layout.index,
      name: layout.name,
      shapes: layout.shapes.map(describeShape),
    })),
    schema: templateJsonSchema(template, inspect),
  };
}

function describeShape(shape: InspectedShape): DescribedShape {
  const described: DescribedShape = {
    name: shape.name,
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
    const xy = data !== undefined && !('categories' in data);
    described.chart = {
      types,
      series,
      form: xy ? 'xy' : 'categories',
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

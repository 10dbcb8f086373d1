/**
 * The body of `POST /console/api/inspect` (the same as `POST /v1.0/template/inspect`), as far as the console reads
 * it. Declared here rather than imported from the engine: the browser sees JSON, and a field the server drops
 * must show up as a gap here, not as a type the bundle silently trusts. `box` is in EMU, in slide space.
 */

export type ShapeKind =
  'text' | 'picture' | 'table' | 'chart' | 'smartart' | 'group' | 'media' | 'ole' | 'connector' | 'other';

export interface ShapeBox {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

export interface InspectedShape {
  name: string;
  id: number;
  kind: ShapeKind;
  text: string;
  tags: string[];
  placeholder: { type: string; idx: number | null } | null;
  group: string | null;
  box?: ShapeBox | null;
  frame?: { widthPx: number; heightPx: number; aspectRatio: number } | null;
  chart?: { types: string[]; series: string[]; categories: number; workbook: string; data?: ChartData };
  table?: { rows: number; columns: number; headerRow: boolean; firstRow: string[]; cells: string[][] };
  /** Text shapes: paragraphs and runs with the `text_properties` each run sets (docs/payload.md "Text"). */
  paragraphs?: InspectedParagraph[];
}

/** A classic chart's cached data, as a chart's `content` takes it (docs/payload-charts.md). */
export type ChartData =
  | {
      categories: (string | number)[];
      series: { name: string; values: (number | null)[] }[];
    }
  | { series: { name: string; x: (number | null)[]; y: (number | null)[]; size?: (number | null)[] }[] };

/** The payload's `text_properties` keys a template run can show. */
export type TextProperties = Partial<{
  font_type: string;
  font_size: number;
  font_bold: boolean;
  font_italic: boolean;
  font_strike: boolean;
  font_underline: string;
  font_color: string;
  font_bg_color: string;
  baseline: 'superscript' | 'subscript';
  hyperlink: string;
}>;

export interface InspectedParagraph {
  runs: { text: string; text_properties: TextProperties }[];
}

export interface InspectedSlide {
  index: number;
  id: number;
  layout: string | null;
  hidden: boolean;
  shapes: InspectedShape[];
  notes: string | null;
  tags: string[];
}

export interface InspectedLayout {
  index: number;
  name: string;
  shapes: InspectedShape[];
}

export interface InspectResult {
  slideSize: { cx: number; cy: number } | null;
  slides: InspectedSlide[];
  layouts: InspectedLayout[];
}

/** PowerPoint's default 16:9 slide, for a template whose presentation part names no size. */
export const DEFAULT_SLIDE_SIZE = { cx: 12_192_000, cy: 6_858_000 } as const;

/**
 * A ready `shapes[]` entry for one inspected shape, following docs/payload*.md, that gives the template's own
 * content back: a text shape's text (a string, or runs where formatting changes inside a paragraph), every cell of
 * a table, a chart's cached categories, series and values. A picture keeps the template's image: its entry
 * changes nothing. Pure, so the inspector's "copy" and the playground's pre-fill agree and are tested without a
 * browser.
 */
import type { InspectedParagraph, InspectedShape, TextProperties } from './inspect-types.js';

export type ShapeEntry = Record<string, unknown> & { name: string };

/** A payload text run (docs/payload.md "Text"). */
export interface TextRun {
  text_run: string;
  text_properties?: TextProperties & { new_line?: boolean };
}

/** Kinds the payload can fill; the others (groups, media, connectors …) can only be hidden or removed. */
export function isFillable(shape: InspectedShape): boolean {
  if (shape.placeholder?.type === 'pic') return true;
  if (shape.kind === 'table') return Boolean(shape.table && shape.table.rows > 0 && shape.table.columns > 0);
  if (shape.kind === 'chart') return Boolean(shape.chart);
  if (shape.kind === 'picture') return true;
  if (shape.kind === 'text') return !isFurniture(shape);
  return false;
}

/** Date, slide number and footer placeholders: filled by PowerPoint itself, not worth a playground entry. */
function isFurniture(shape: InspectedShape): boolean {
  return ['dt', 'sldNum', 'ftr'].includes(shape.placeholder?.type ?? '');
}

/** The entry a click on the shape copies: its content as the template has it, or, where a payload cannot give
 * that back (a picture, a chart without cached data), the entry every kind takes, which leaves it as it is. */
export function shapeEntry(shape: InspectedShape): ShapeEntry {
  return contentEntry(shape) ?? { name: shape.name, is_hidden: false };
}

/** The pre-fill's entry: only shapes whose content a payload gives back; the others keep the template's. */
export function contentEntry(shape: InspectedShape): ShapeEntry | null {
  if (shape.kind === 'picture' || shape.placeholder?.type === 'pic') return null;
  if (shape.kind === 'table' && shape.table) return { name: shape.name, content: shape.table.cells };
  if (shape.kind === 'chart')
    return shape.chart?.data ? { name: shape.name, content: shape.chart.data } : null;
  if (shape.kind === 'text')
    return { name: shape.name, content: shape.paragraphs ? textContent(shape.paragraphs) : shape.text };
  return null;
}

/**
 * The simplest text content that writes the paragraphs back: a string when every paragraph's runs share their
 * formatting (paragraph i keeps the template's paragraph i formatting), else runs, each with the properties in
 * which it differs from its paragraph's first run (which the template gives every run of that paragraph).
 */
export function textContent(paragraphs: readonly InspectedParagraph[]): string | TextRun[] {
  if (paragraphs.every((p) => p.runs.length <= 1))
    return paragraphs.map((p) => p.runs.map((r) => r.text).join('')).join('\n');
  const runs: TextRun[] = [];
  paragraphs.forEach((paragraph, i) => {
    const base = paragraph.runs[0]?.text_properties ?? {};
    const pieces = paragraph.runs.length > 0 ? paragraph.runs : [{ text: '', text_properties: base }];
    pieces.forEach((run, j) => {
      const properties: TextRun['text_properties'] = j === 0 ? {} : difference(base, run.text_properties);
      if (i > 0 && j === 0) properties.new_line = true;
      runs.push(
        Object.keys(properties).length > 0
          ? { text_run: run.text, text_properties: properties }
          : { text_run: run.text },
      );
    });
  });
  return runs;
}

const SWITCHES = ['font_bold', 'font_italic', 'font_strike'] as const;

/**
 * What `run` sets differently from `base`. A switch the base turns on and the run leaves unset is turned off; a
 * size, font or colour the run leaves unset has no payload value that unsets it, so the base's stays.
 */
function difference(base: TextProperties, run: TextProperties): TextProperties {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(run)) {
    if (base[key as keyof TextProperties] !== value) result[key] = value;
  }
  for (const key of SWITCHES) if (base[key] === true && run[key] === undefined) result[key] = false;
  return result as TextProperties;
}

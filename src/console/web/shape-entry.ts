/**
 * A ready `shapes[]` entry for one inspected shape, following docs/payload*.md: a string for a text shape (its
 * paragraphs kept), rows for a table (its grid, first row as the template has it), categories and series for a
 * chart, an image for a picture. Pure, so the inspector's "copy" and the playground's pre-fill agree and are tested
 * without a browser.
 */
import type { InspectedShape } from './inspect-types.js';

export type ShapeEntry = Record<string, unknown> & { name: string };

/**
 * A small grey PNG (16 × 9 pixels) as a data URL (docs/payload-pictures.md accepts `data:` sources), so a pre-filled
 * payload generates as it is; the user replaces it with a file name they attach or an https URL.
 */
export const PLACEHOLDER_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFElEQVQY02PYsO8oSYhhVMOg0AAAy3E8wEhcCk8AAAAASUVORK5CYII=';

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

export function shapeEntry(shape: InspectedShape): ShapeEntry {
  if (shape.kind === 'picture' || shape.placeholder?.type === 'pic')
    return { name: shape.name, content: PLACEHOLDER_IMAGE, fit: 'contain' };
  if (shape.kind === 'table' && shape.table) return { name: shape.name, content: tableRows(shape.table) };
  if (shape.kind === 'chart' && shape.chart) return { name: shape.name, content: chartContent(shape.chart) };
  if (shape.kind === 'text') return { name: shape.name, content: shape.text || shape.name };
  // Nothing to put in it: the entries every kind takes.
  return { name: shape.name, is_hidden: false };
}

function tableRows(table: NonNullable<InspectedShape['table']>): string[][] {
  const rows: string[][] = [];
  for (let r = 0; r < table.rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < table.columns; c++)
      row.push(r === 0 && table.headerRow ? (table.firstRow[c] ?? '') : `R${r + 1}C${c + 1}`);
    rows.push(row);
  }
  return rows;
}

function chartContent(chart: NonNullable<InspectedShape['chart']>): {
  categories: string[];
  series: { name: string; values: number[] }[];
} {
  const count = Math.max(1, chart.categories);
  const categories = Array.from({ length: count }, (_, i) => `Category ${i + 1}`);
  const names = chart.series.length > 0 ? chart.series : ['Series 1'];
  return {
    categories,
    series: names.map((name, s) => ({ name, values: categories.map((_, i) => (s + 1) * 10 + i * 5) })),
  };
}

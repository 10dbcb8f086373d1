/**
 * `deckforge inspect TEMPLATE [--json]`: slides, layouts, slide masters and every shape's name, id, kind, text and
 * tags; for a table its grid, merges and first row; for a SmartArt graphic its nodes.
 */
import { readFileSync } from 'node:fs';
import { inspect, type InspectedShape, type InspectedTable, type InspectResult } from '../engine/index.js';
import { reportUserError, type CommandIo } from './command-io.js';

const HELP = `Usage: deckforge inspect TEMPLATE [--json]

  --json   print the result as JSON (the same document POST /v1.0/template/inspect returns)
`;

export async function runInspect(args: string[], io: CommandIo): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(HELP);
    return 0;
  }
  const json = args.includes('--json');
  const [file, ...extra] = args.filter((a) => a !== '--json');
  if (!file || extra.length > 0) {
    io.stderr(HELP);
    return 2;
  }
  try {
    const result = inspect(readFileSync(file));
    io.stdout(json ? `${JSON.stringify(result, null, 2)}\n` : describe(result));
    return 0;
  } catch (error) {
    return reportUserError(error, io);
  }
}

function describe(result: InspectResult): string {
  const lines: string[] = [];
  for (const slide of result.slides) {
    const flags = [
      slide.layout ? `layout ${quoted(slide.layout)}` : null,
      slide.hidden ? 'hidden' : null,
      `${size(slide.xmlBytes)} of XML`,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`slide ${slide.index} (id ${slide.id}, ${flags})`);
    for (const shape of slide.shapes) lines.push(shapeLine(shape), ...smartArtLines(shape));
    if (slide.notes) lines.push(`  notes: ${JSON.stringify(clip(slide.notes))}`);
  }
  lines.push('', 'layouts (for "type": "layout", by slide_index; for "layouts", by index):');
  for (const layout of result.layouts) {
    lines.push(`  ${layout.index}: ${quoted(layout.name)} (master ${layout.master})`);
    // Picture placeholders of a layout: what a slide made from it (`"type": "layout"`) can take. Its other
    // shapes that are no placeholder (a logo, a text box) show on every slide that uses it: "layouts" fills them.
    for (const shape of layout.shapes)
      if (shape.placeholder?.type === 'pic') lines.push(`    picture placeholder ${shapeLine(shape).trim()}`);
      else if (!shape.placeholder) lines.push(`  ${shapeLine(shape)}`);
  }
  lines.push('', 'masters (for "masters", by index):');
  for (const master of result.masters) {
    lines.push(`  ${master.index}: ${quoted(master.name)}`);
    for (const shape of master.shapes) lines.push(`  ${shapeLine(shape)}`);
  }
  return `${lines.join('\n')}\n`;
}

function shapeLine(shape: InspectedShape): string {
  const indent = shape.group ? '    ' : '  ';
  const ph = shape.placeholder ? ` placeholder=${shape.placeholder.type}` : '';
  const tags = shape.tags.length ? ` tags=${shape.tags.map((t) => `{{${t}}}`).join(',')}` : '';
  if (shape.table)
    return `${indent}#${shape.id} "${shape.name}" ${shape.kind}${ph}${tags}${tableText(shape.table)}`;
  const text = shape.text ? ` ${JSON.stringify(clip(shape.text))}` : '';
  return `${indent}#${shape.id} ${quoted(shape.name)} ${shape.kind}${ph}${frame(shape)}${tags}${text}${chartText(shape)}`;
}

/**
 * A SmartArt's nodes, one line each in the order of its text pane, indented by level: what `content` fills, one
 * string per node (docs/payload.md, "SmartArt").
 */
function smartArtLines(shape: InspectedShape): string[] {
  const indent = shape.group ? '      ' : '    ';
  return (shape.smartart?.nodes ?? []).map(
    (node, i) =>
      `${indent}${'  '.repeat(node.level)}node ${i} (level ${node.level}) ${JSON.stringify(clip(node.text))}`,
  );
}

/** A name as a JSON string: quoted, and a line break or tab in it escaped, so each shape stays on one line. */
function quoted(name: string): string {
  return JSON.stringify(name);
}

/** ` frame=640x360px (16:9 = 1.778)`: the size to prepare a picture's image at (96 dpi). */
function frame(shape: InspectedShape): string {
  if (shape.frame === undefined) return '';
  if (shape.frame === null) return ' frame=unknown';
  const { widthPx, heightPx, aspectRatio } = shape.frame;
  return ` frame=${widthPx}x${heightPx}px (aspect ${aspectRatio})`;
}

/** ` [bar (column, clustered); series "A", "B"; 4 categories; workbook embedded]` for a chart. */
function chartText(shape: InspectedShape): string {
  const chart = shape.chart;
  if (!chart) return '';
  const names = chart.series.map((name) => JSON.stringify(clip(name))).join(', ');
  return ` [${chart.types.join(' + ')}; series ${names || '(none)'}; ${chart.categories} categories; workbook ${chart.workbook}]`;
}

/** ` 6 rows x 5 columns, header row, merged r0c1 1x2; first row: "Region" | "Q1" | …` */
function tableText(table: InspectedTable): string {
  const parts = [`${table.rows} rows x ${table.columns} columns`];
  if (table.headerRow) parts.push('header row');
  if (table.merges.length > 0) {
    const merges = table.merges.map((m) => `r${m.row}c${m.column} ${m.rowSpan}x${m.columnSpan}`);
    parts.push(`merged ${merges.join(' ')}`);
  }
  const first = table.firstRow.map((t) => JSON.stringify(clip(t, 20))).join(' | ');
  return ` ${parts.join(', ')}; first row: ${first}`;
}

/** 1 686 784 → "1.6 MB", 14 210 → "13.9 KB", 512 → "512 B" (powers of 1024, as file managers show them). */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

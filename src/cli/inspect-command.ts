/** `deckforge inspect TEMPLATE [--json]`: slides, layouts and every shape's name, id, kind, text and tags. */
import { readFileSync } from 'node:fs';
import { inspect, type InspectedShape, type InspectResult } from '../engine/index.js';
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
    const flags = [slide.layout ? `layout "${slide.layout}"` : null, slide.hidden ? 'hidden' : null]
      .filter(Boolean)
      .join(', ');
    lines.push(`slide ${slide.index} (id ${slide.id}${flags ? `, ${flags}` : ''})`);
    for (const shape of slide.shapes) lines.push(shapeLine(shape));
    if (slide.notes) lines.push(`  notes: ${JSON.stringify(clip(slide.notes))}`);
  }
  lines.push('', 'layouts (for "type": "layout", by slide_index):');
  for (const layout of result.layouts) lines.push(`  ${layout.index}: ${layout.name}`);
  return `${lines.join('\n')}\n`;
}

function shapeLine(shape: InspectedShape): string {
  const indent = shape.group ? '    ' : '  ';
  const ph = shape.placeholder ? ` placeholder=${shape.placeholder.type}` : '';
  const tags = shape.tags.length ? ` tags=${shape.tags.map((t) => `{{${t}}}`).join(',')}` : '';
  const text = shape.text ? ` ${JSON.stringify(clip(shape.text))}` : '';
  return `${indent}#${shape.id} "${shape.name}" ${shape.kind}${ph}${tags}${text}`;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

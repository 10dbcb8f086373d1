/**
 * What a `generate_deck` dry run adds to the engine's own warnings (docs/mcp.md, "generate_deck"), from the
 * template's description alone: shapes the slide does not have, with the closest names it does; text past a
 * shape's capacity, and by how much; `{{tags}}` the deck leaves as they are. Pure: the jsonData and the
 * description in, the problems out.
 */
import { closestNames, isWideCodePoint } from '../engine/index.js';
import type { DescribedShape, TemplateDescription } from './template-description.js';

export interface DeckProblem {
  code: 'unknown_shape' | 'text_over_capacity' | 'tag_unfilled';
  path: string;
  message: string;
  closest?: string[];
}

const CLOSEST_SHOWN = 3;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function deckProblems(jsonData: Json, description: TemplateDescription): DeckProblem[] {
  const presentation = isRecord(jsonData['presentation']) ? jsonData['presentation'] : jsonData;
  const base = isRecord(jsonData['presentation']) ? 'presentation' : '';
  const at = (path: string): string => (base ? `${base}.${path}` : path);
  const slides = Array.isArray(presentation['slides']) ? presentation['slides'] : [];
  const deckTags = tagKeys(presentation['tags']);
  const problems: DeckProblem[] = [];
  slides.forEach((slide: unknown, s) => {
    if (!isRecord(slide) || typeof slide['slide_index'] !== 'number') return;
    const layout = typeof slide['type'] === 'string' && slide['type'].toLowerCase() === 'layout';
    const page = layout
      ? description.layouts.find((l) => l.index === slide['slide_index'])
      : description.slides.find((l) => l.index === slide['slide_index']);
    if (!page) return; // the engine names the index and the template's slide count
    const entries = Array.isArray(slide['shapes']) ? slide['shapes'] : [];
    const filled = new Set<DescribedShape>();
    entries.forEach((entry: unknown, k) => {
      if (!isRecord(entry)) return;
      const path = at(`slides[${s}].shapes[${k}]`);
      // By shapeId, the id the description gives (the engine names an unknown id itself); else by name.
      const id = Number(entry['shapeId'] ?? Number.NaN);
      if (typeof entry['name'] !== 'string') {
        const byId = page.shapes.find((candidate) => candidate.id === id);
        if (byId) check(byId, entry, path);
        return;
      }
      const shape = page.shapes.find((candidate) => candidate.name === entry['name']);
      if (!shape) {
        const names = page.shapes.filter((c) => c.kind !== 'group').map((c) => c.name);
        problems.push({
          code: 'unknown_shape',
          path: `${path}.name`,
          message: `${layout ? 'layout' : 'slide'} ${page.index} has no shape named "${entry['name']}"`,
          closest: closestNames(entry['name'], names, CLOSEST_SHOWN),
        });
        return;
      }
      check(shape, entry, path);
    });
    function check(shape: DescribedShape, entry: Json, path: string): void {
      const content = entry['content'] ?? entry['text'];
      if (content !== undefined && content !== null) filled.add(shape);
      const over = typeof content === 'string' ? overCapacity(content, shape) : null;
      if (over) problems.push({ code: 'text_over_capacity', path: `${path}.content`, message: over });
    }
    if (layout) return;
    const given = new Set([...deckTags, ...tagKeys(slide['tags'])]);
    const left = new Set<string>();
    for (const shape of page.shapes) {
      if (filled.has(shape)) continue; // filled shapes lose the template's text, tags and all
      for (const tag of shape.tags) if (!given.has(tag)) left.add(tag);
    }
    for (const tag of left) {
      problems.push({
        code: 'tag_unfilled',
        path: at(`slides[${s}]`),
        message: `the tag {{${tag}}} stays as it is on this slide: give it in the slide's or the deck's tags`,
      });
    }
  });
  return problems;
}

/** The lines a text takes by the capacity's own count: each paragraph ceil(width ÷ chars_per_line). */
export function linesNeeded(text: string, charsPerLine: number): number {
  return text
    .split(/\r\n|\n|\r/)
    .reduce(
      (sum, paragraph) => sum + Math.max(1, Math.ceil(textWidth(paragraph) / Math.max(1, charsPerLine))),
      0,
    );
}

/** Characters as the capacity counts them: a wide East Asian character two. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += isWideCodePoint(ch.codePointAt(0)!) ? 2 : 1;
  return width;
}

function overCapacity(text: string, shape: DescribedShape): string | null {
  const capacity = shape.capacity;
  if (!capacity) return null;
  const needed = linesNeeded(text, capacity.chars_per_line);
  if (needed <= capacity.lines) return null;
  return (
    `text of shape "${shape.name}" needs about ${needed} lines of ${capacity.chars_per_line} characters; ` +
    `the box holds ${capacity.lines} (${needed - capacity.lines} too many): it will probably overflow`
  );
}

function tagKeys(tags: unknown): string[] {
  if (!Array.isArray(tags)) return [];
  return tags.flatMap((tag: unknown) => {
    if (!isRecord(tag)) return [];
    const key = tag['key'] ?? tag['Key'];
    return typeof key === 'string' ? [key.trim()] : [];
  });
}

/**
 * The engine's second door: what a template holds, so users stop hunting for shape names in PowerPoint's
 * selection pane. Slides, layouts, and every shape's name, id, kind, text and `{{tags}}`.
 */
import type { PackageLimits } from './package/limits.js';
import { Template } from './presentation/template.js';
import { listShapes, type ShapeKind } from './shapes/find-shape.js';
import { child, descendants, firstDescendant, textContent, type XmlElement } from './xml/index.js';
import { createHash } from 'node:crypto';

export interface InspectedShape {
  name: string;
  id: number;
  kind: ShapeKind;
  /** Paragraphs joined with `\n`; empty for shapes without text. */
  text: string;
  tags: string[];
  placeholder: { type: string; idx: number | null } | null;
  /** Name of the group the shape sits in, if any. */
  group: string | null;
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

const TAG = /\{\{\s*([^{}]+?)\s*\}\}/g;

export function inspect(templateBytes: Uint8Array, limits?: Partial<PackageLimits>): InspectResult {
  const template = Template.open(
    templateBytes,
    createHash('sha256').update(templateBytes).digest('hex'),
    limits,
  );
  const sldSz = child(template.presentation.root, 'p:sldSz');
  const layoutName = new Map(template.layouts.map((l) => [l.partName, l.name]));
  return {
    slideSize: sldSz ? { cx: Number(sldSz.attrs.cx), cy: Number(sldSz.attrs.cy) } : null,
    slides: template.slides.map((slide) => {
      const root = template.xml(slide.partName).root;
      const shapes = inspectShapes(root);
      const notes = slide.notesPartName ? notesText(template.xml(slide.notesPartName).root) : null;
      return {
        index: slide.index,
        id: slide.id,
        layout: slide.layoutPartName ? (layoutName.get(slide.layoutPartName) ?? null) : null,
        hidden: root.attrs.show === '0',
        shapes,
        notes,
        tags: unique([...shapes.flatMap((s) => s.tags), ...tagsIn(notes ?? '')]),
      };
    }),
    layouts: template.layouts.map((layout) => ({
      index: layout.index,
      name: layout.name,
      shapes: inspectShapes(template.xml(layout.partName).root),
    })),
  };
}

function inspectShapes(root: XmlElement): InspectedShape[] {
  const spTree = firstDescendant(root, 'p:spTree');
  if (!spTree) return [];
  const groupOf = new Map<XmlElement, string>();
  const shapes = listShapes(spTree);
  for (const shape of shapes)
    if (shape.kind === 'group')
      for (const inner of descendants(shape.element)) groupOf.set(inner, shape.name);
  return shapes.map((shape) => {
    const text = paragraphsText(shape.element);
    return {
      name: shape.name,
      id: shape.id,
      kind: shape.kind,
      text: shape.kind === 'group' ? '' : text,
      tags: shape.kind === 'group' ? [] : tagsIn(text),
      placeholder: shape.placeholder,
      group: groupOf.get(shape.element) ?? null,
    };
  });
}

function paragraphsText(el: XmlElement): string {
  return [...descendants(el, 'a:p')].map((p) => textContent(p)).join('\n');
}

function notesText(notes: XmlElement): string | null {
  for (const sp of descendants(notes, 'p:sp')) {
    if (firstDescendant(sp, 'p:ph')?.attrs.type === 'body') return paragraphsText(sp);
  }
  return null;
}

function tagsIn(text: string): string[] {
  return unique([...text.matchAll(TAG)].map((m) => m[1] ?? ''));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * The engine's second door: what a template holds, so users stop hunting for shape names in PowerPoint's
 * selection pane. Slides, layouts, and every shape's name, id, kind, text and `{{tags}}`; for pictures and
 * picture placeholders, the frame an image goes into (so a user can prepare images that fit); for a table its
 * grid, merges and first row; for a chart its types, series, categories and workbook. And each fillable shape's
 * content in the payload's words, so a payload written from it gives the template back: a text shape's
 * paragraphs and runs, every table cell, a chart's cached data.
 */
import { diagramNodes } from './diagrams/inspect-diagram.js';
import { summarizeChart, type ChartReader, type ChartSummary } from './charts/chart-summary.js';
import type { PackageLimits } from './package/limits.js';
import { resolveTarget } from './package/relationships.js';
import { effectiveBodyPr, firstXfrm, placeholderKey } from './presentation/placeholders.js';
import { isHiddenSlide } from './presentation/slide-visibility.js';
import { Template } from './presentation/template.js';
import { listShapes, shapeVariants, type FoundShape } from './shapes/find-shape.js';
import { SHAPE_KINDS, type Detail, type ShapeKind } from './shapes/shape-kinds.js';
import { enclosingGroups, toSlideSpace, type Box } from './shapes/group-transform.js';
import { ownBox } from './shapes/shape-properties.js';
import { describeTable, type InspectedTable } from './tables/describe-table.js';
import { inspectParagraphs, type InspectedParagraph } from './text/inspected-text.js';
import { textCapacity, type TextCapacity } from './text/text-capacity.js';
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
  /**
   * Where the shape is on the slide, in EMU (914400 per inch), rounded: its own transform, or the matching
   * layout/master placeholder's when it has none, carried through the transforms of its groups (rotation and
   * flips left out). Null when nothing gives it a position.
   */
  box: Box | null;
  /** Pictures and picture placeholders: the frame on the slide (own or inherited from the layout). */
  frame?: PictureFrame | null;
  /** For a chart: its type(s), series names, category count and where its data lives. */
  chart?: ChartSummary;
  /** Tables only: the grid, merges, first row and every cell's text, to write `content` by. */
  table?: InspectedTable;
  /** SmartArt: the text of each node, in the order of its text pane (what `content` fills, one string each). */
  smartart?: { nodes: { text: string; level: number }[] };
  /** Text shapes: the paragraphs and runs, with the run formatting a payload can express (text/inspected-text.ts). */
  paragraphs?: InspectedParagraph[];
  /**
   * Text shapes: how much text fits at the template's own font and size, by the estimate the overflow warning
   * uses (text/text-capacity.ts); null when it cannot say (vertical text, no box).
   */
  capacity?: TextCapacity | null;
}

export interface PictureFrame {
  /** At 96 dpi (9525 EMU per pixel), as PowerPoint counts pixels. */
  widthPx: number;
  heightPx: number;
  /** Width ÷ height, to three decimals. */
  aspectRatio: number;
}

export interface InspectedSlide {
  index: number;
  id: number;
  layout: string | null;
  hidden: boolean;
  shapes: InspectedShape[];
  notes: string | null;
  tags: string[];
  /**
   * Size of the slide's XML part, uncompressed. What a slide costs to fill grows with it: a slide of megabytes
   * (thousands of shapes) takes far more time and memory than a plain one (docs/large-decks.md).
   */
  xmlBytes: number;
}

export interface InspectedLayout {
  index: number;
  name: string;
  /** The index of its slide master in `masters`. */
  master: number;
  shapes: InspectedShape[];
}

/** A slide master, as payload `masters[].index` counts them (presentation.xml's order). */
export interface InspectedMaster {
  index: number;
  /** Its own name, else its theme's. */
  name: string;
  shapes: InspectedShape[];
}

export interface InspectResult {
  slideSize: { cx: number; cy: number } | null;
  slides: InspectedSlide[];
  layouts: InspectedLayout[];
  masters: InspectedMaster[];
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
  const masterIndex = new Map(template.masters.map((m) => [m.partName, m.index]));
  return {
    slideSize: sldSz ? { cx: Number(sldSz.attrs.cx), cy: Number(sldSz.attrs.cy) } : null,
    slides: template.slides.map((slide) => {
      const root = template.xml(slide.partName).root;
      const shapes = inspectShapes(root, template, slide.partName, slide.layoutPartName);
      const notes = slide.notesPartName ? notesText(template.xml(slide.notesPartName).root) : null;
      return {
        index: slide.index,
        id: slide.id,
        layout: slide.layoutPartName ? (layoutName.get(slide.layoutPartName) ?? null) : null,
        hidden: isHiddenSlide(root),
        shapes,
        notes,
        tags: unique([...shapes.flatMap((s) => s.tags), ...tagsIn(notes ?? '')]),
        xmlBytes: template.pkg.bytes(slide.partName).length,
      };
    }),
    layouts: template.layouts.map((layout) => ({
      index: layout.index,
      name: layout.name,
      master: masterIndex.get(layout.masterPartName) ?? 0,
      shapes: inspectShapes(template.xml(layout.partName).root, template, layout.partName, layout.partName),
    })),
    masters: template.masters.map((master) => ({
      index: master.index,
      name: master.name,
      shapes: inspectShapes(template.xml(master.partName).root, template, master.partName, master.partName),
    })),
  };
}

/** Resolves a slide's (or layout's) chart relationships inside the template. */
function chartReader(template: Template, owner: string): ChartReader {
  return {
    target(relId) {
      const rel = template.relationships(owner).find((r) => r.id === relId);
      return rel && !rel.external ? resolveTarget(owner, rel.target) : null;
    },
    has: (partName) => template.pkg.has(partName),
    xml: (partName) => template.xml(partName).root,
    relationships: (partName) => template.relationships(partName),
  };
}

/**
 * `owner`: the slide or layout part the shapes are on; `inheritFrom`: the layout its placeholders inherit from
 * (for a layout's own shapes: itself, then its master).
 */
function inspectShapes(
  root: XmlElement,
  template: Template,
  owner: string,
  inheritFrom: string | null,
): InspectedShape[] {
  const spTree = firstDescendant(root, 'p:spTree');
  if (!spTree) return [];
  const groupOf = new Map<XmlElement, string>();
  const shapes = listShapes(spTree);
  for (const shape of shapes)
    if (shape.kind === 'group')
      for (const inner of descendants(shape.element)) groupOf.set(inner, shape.name);
  return shapes.map((shape) => {
    const text = paragraphsText(shape.element);
    const inspected: InspectedShape = {
      name: shape.name,
      id: shape.id,
      kind: shape.kind,
      text: shape.kind === 'group' ? '' : text,
      tags: shape.kind === 'group' ? [] : tagsIn(text),
      placeholder: shape.placeholder,
      group: groupOf.get(shape.element) ?? null,
      box: null,
    };
    const box = frameOf(spTree, shape, template, inheritFrom);
    inspected.box = box && {
      x: Math.round(box.x),
      y: Math.round(box.y),
      cx: Math.round(box.cx),
      cy: Math.round(box.cy),
    };
    const on: ShapeSite = { template, owner, inheritFrom, box };
    for (const detail of SHAPE_KINDS[shape.kind].details) DETAILS[detail](inspected, shape, on);
    // A picture placeholder that holds text is a text shape, and still the frame a picture would go into.
    if (shape.placeholder?.type === 'pic' && inspected.frame === undefined)
      DETAILS.frame(inspected, shape, on);
    return inspected;
  });
}

/** Where a shape is inspected: its template and part, the layout it inherits from, its box on the slide. */
interface ShapeSite {
  template: Template;
  owner: string;
  inheritFrom: string | null;
  box: Box | null;
}

/** What each detail of the table of shape kinds (shapes/shape-kinds.ts) adds to an inspected shape. */
const DETAILS: Record<Detail, (inspected: InspectedShape, shape: FoundShape, on: ShapeSite) => void> = {
  paragraphs(inspected, shape, { template, owner, inheritFrom, box }) {
    const txBody = child(shapeVariants(shape)[0] ?? shape.element, 'p:txBody');
    if (!txBody) return;
    inspected.paragraphs = inspectParagraphs(txBody, (relId) => linkTarget(template, owner, relId));
    inspected.capacity = textCapacity(shape, box, inheritedBodyPr(shape, template, inheritFrom));
  },
  frame(inspected, _shape, { box }) {
    inspected.frame = pictureFrame(box);
  },
  table(inspected, shape) {
    const table = describeTable(shapeVariants(shape)[0] ?? shape.element);
    if (table) inspected.table = table;
  },
  chart(inspected, shape, { template, owner }) {
    const chart = summarizeChart(shape.element, chartReader(template, owner));
    if (chart) inspected.chart = chart;
  },
  nodes(inspected, shape, { template, owner }) {
    const nodes = diagramNodes(shapeVariants(shape)[0] ?? shape.element, chartReader(template, owner));
    if (nodes) inspected.smartart = { nodes };
  },
};

/** The layout/master placeholder's a:bodyPr a placeholder inherits autofit and insets from, as fill-slide.ts finds it. */
function inheritedBodyPr(
  shape: FoundShape,
  template: Template,
  inheritFrom: string | null,
): XmlElement | null {
  const key = shape.placeholder ? placeholderKey(shape.element) : null;
  return key ? effectiveBodyPr(template.inheritedPlaceholders(inheritFrom, key)) : null;
}

const LINK_SCHEMES = /^(https?:|mailto:)/i;

/** The URL of an external hyperlink relationship a run points at, when a payload could give it (http, https, mailto). */
function linkTarget(template: Template, owner: string, relId: string): string | null {
  const rel = template.relationships(owner).find((r) => r.id === relId);
  return rel?.external && LINK_SCHEMES.test(rel.target) ? rel.target : null;
}

function frameOf(
  spTree: XmlElement,
  shape: FoundShape,
  template: Template,
  inheritFrom: string | null,
): Box | null {
  const shapeEl = shapeVariants(shape)[0] ?? shape.element;
  const own = ownBox(shapeEl);
  // Most shapes sit on the slide itself: no need to walk the tree for their groups.
  if (own) return shape.parent === spTree ? own : toSlideSpace(own, enclosingGroups(spTree, shape));
  const key = placeholderKey(shapeEl);
  return key ? firstXfrm(template.inheritedPlaceholders(inheritFrom, key)) : null;
}

const EMU_PER_PIXEL = 9525;

function pictureFrame(box: Box | null): PictureFrame | null {
  if (!box || box.cx <= 0 || box.cy <= 0) return null;
  return {
    widthPx: Math.round(box.cx / EMU_PER_PIXEL),
    heightPx: Math.round(box.cy / EMU_PER_PIXEL),
    aspectRatio: Math.round((box.cx / box.cy) * 1000) / 1000,
  };
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

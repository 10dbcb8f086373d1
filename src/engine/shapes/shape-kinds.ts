/**
 * The one table of shape kinds: every kind a slide's shape can be (find-shape.ts tells them apart), and for each
 * what the rest of the engine asks of it — how a message names it, which content it takes and which filler
 * fills each form (docs/payload.md "Shapes"), whether the accessibility report wants a description of it, and
 * what `inspect` tells of it. The fillers and inspectors are named here, not imported: the per-slide driver
 * (slides/) and inspect.ts each hold a record over those names, so a filler or detail added here does not
 * compile until it has its implementation, and a kind added here is a kind everywhere (`ShapeKind`).
 */
import type { ShapeContent } from '../payload/model.js';

/** The engine's fillers, by the room that holds each (text/, pictures/, tables/, charts/, diagrams/). */
export type Filler = 'text' | 'picture' | 'table' | 'chart' | 'diagram';

/** What `inspect` tells of a shape beyond its name, id, box and text (inspect.ts). */
export type Detail = 'paragraphs' | 'frame' | 'table' | 'chart' | 'nodes';

/** The forms a shape entry's content takes (payload/shape-request.ts). */
export type ContentForm = ShapeContent['kind'];

export interface ShapeKindRow {
  /** How a message names a shape of the kind: `shape "Logo" is a picture`. */
  label: string;
  /** What it takes, said when content of another form is sent; null when nothing fills it. */
  takes: string | null;
  /** The filler each content form goes to; a form without one is refused (`CONTENT_MISMATCH`). */
  fills: Partial<Record<ContentForm, Filler>>;
  /**
   * The shape's fill colour and `settings.chart` live in its own part, not on its frame, so settings alone
   * restyle it (the filler gets them with the content).
   */
  styledInItsPart: boolean;
  /** The word the accessibility report names it by when a reader needs a description of it; null: none needed. */
  describedAs: string | null;
  /** What `inspect` adds for it. */
  details: readonly Detail[];
}

const NOTHING_FILLS = { takes: null, fills: {}, styledInItsPart: false, describedAs: null, details: [] };

export const SHAPE_KINDS = {
  text: {
    label: 'a text shape',
    takes: 'a text shape takes a string or an array of runs',
    // A picture goes into a text shape too: as its fill, or as the picture of an empty placeholder.
    fills: { string: 'text', text: 'text', picture: 'picture' },
    styledInItsPart: false,
    describedAs: null,
    details: ['paragraphs'],
  },
  picture: {
    label: 'a picture',
    takes: 'a picture takes a file name, URL or data: URI',
    // A bare string on a picture is its source (docs/payload-pictures.md).
    fills: { string: 'picture', picture: 'picture' },
    styledInItsPart: false,
    describedAs: 'picture',
    details: ['frame'],
  },
  table: {
    label: 'a table',
    takes: 'a table takes an array of rows',
    fills: { table: 'table' },
    styledInItsPart: false,
    describedAs: 'table',
    details: ['table'],
  },
  chart: {
    label: 'a chart',
    takes: 'a chart takes an object with categories and series (or a data matrix)',
    fills: { chart: 'chart' },
    styledInItsPart: true,
    describedAs: 'chart',
    details: ['chart'],
  },
  smartart: {
    label: 'a SmartArt graphic',
    takes:
      'a SmartArt graphic takes an array of strings, one per node, or a string or runs, one node per paragraph',
    fills: { string: 'diagram', text: 'diagram', list: 'diagram' },
    styledInItsPart: false,
    describedAs: null,
    details: ['nodes'],
  },
  group: {
    ...NOTHING_FILLS,
    label: 'a group',
    takes: 'a group takes no content itself; name a shape inside it',
    describedAs: 'group',
  },
  media: { ...NOTHING_FILLS, label: 'a media object' },
  ole: { ...NOTHING_FILLS, label: 'an embedded OLE object' },
  connector: { ...NOTHING_FILLS, label: 'a connector' },
  other: { ...NOTHING_FILLS, label: 'a shape that cannot be filled' },
} as const satisfies Record<string, ShapeKindRow>;

export type ShapeKind = keyof typeof SHAPE_KINDS;

/** Every kind, in the table's order (the inspect schema's enum). */
export const SHAPE_KIND_NAMES = Object.keys(SHAPE_KINDS) as ShapeKind[];

/** How a refusal names content of each form. A bare string is text wherever a string is not a picture's source. */
const CONTENT_LABEL: Record<ContentForm, string> = {
  string: 'text',
  text: 'text',
  list: 'a list of strings',
  picture: 'a picture',
  table: 'a table',
  chart: 'a chart',
};

/** The filler a shape of `kind` gives `content` to, or null when the kind does not take that form. */
export function fillerFor(kind: ShapeKind, content: ShapeContent): Filler | null {
  const fills: Partial<Record<ContentForm, Filler>> = SHAPE_KINDS[kind].fills;
  return fills[content.kind] ?? null;
}

/** Why a shape of `kind` named `name` refuses `content` (the `CONTENT_MISMATCH` message). */
export function mismatchMessage(kind: ShapeKind, name: string, content: ShapeContent): string {
  const row: ShapeKindRow = SHAPE_KINDS[kind];
  return (
    `shape "${name}" is ${row.label} but content is ${CONTENT_LABEL[content.kind]}` +
    `; ${row.takes ?? 'it cannot be filled'}`
  );
}

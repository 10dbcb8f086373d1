/**
 * What a chart filler may touch (a narrow context from the slide): the slide's own copy of the chart
 * part and the parts it relates to (workbook, style), read and written back. The deck builder provides it; the
 * chart code never reaches into the deck builder.
 */
import type { PackageLimits } from '../package/limits.js';
import type { Relationship } from '../package/relationships.js';
import type { XmlDocument } from '../xml/index.js';

export interface ChartParts {
  /** Where the slide's relationship `relId` points (the chart part the graphic frame names). */
  slideTarget(
    relId: string,
  ):
    | { external: false; partName: string; type: string }
    | { external: true; target: string; type: string }
    | null;
  relationships(partName: string): readonly Relationship[];
  has(partName: string): boolean;
  bytes(partName: string): Uint8Array;
  /** A fresh tree of the part, for editing. */
  xml(partName: string): XmlDocument;
  write(partName: string, data: string | Uint8Array): void;
  /** The template's zip-bomb limits, which bound an embedded workbook too. */
  readonly limits: PackageLimits;
  /**
   * A value made once per request and key (the parsed parts of a template workbook that every copy of a chart
   * shares); `key` is an object (the template part's bytes), so nothing outlives the request.
   */
  memo<T>(key: object, make: () => T): T;
}

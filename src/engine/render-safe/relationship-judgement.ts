/**
 * Which relationships a renderer may follow (ECMA-376 Part 2 §9.3): judged by where the target leads, what the
 * target part is (part-kinds.ts, by its bytes) and what the elements that name the relationship do with it
 * (part-survey.ts), never by the relationship's Type alone. A relationship that is not followable is
 * dropped, its r:id left pointing at nothing: a picture then draws as an empty frame, or as its embedded
 * fallback.
 */
import { REL, resolveTarget, targetEscape, type Relationship } from '../package/relationships.js';
import type { PartKind } from './part-kinds.js';
import type { RelationshipUse } from './part-survey.js';

const MS2006 = 'http://schemas.microsoft.com/office/2006/relationships/';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/** Internal relationships whose targets a renderer would run, embed or hand to another program, whatever names them. */
const NEVER_FOLLOWED = new Set<string>([
  REL.oleObject,
  REL.package,
  REL.vbaProject,
  REL.control,
  REL.media,
  REL.video,
  REL.audio,
  REL.vmlDrawing,
  `${MS2006}activeXControlBinary`,
  `${MS2006}vbaProjectSignature`,
  `${OFFICE}attachedTemplate`,
  `${OFFICE}frame`,
  `${OFFICE}subDocument`,
  `${OFFICE}externalLinkPath`,
]);

/** Hyperlink targets kept (as clickable links in the PDF): web pages and mail addresses, nothing local. */
export const CLICKABLE_TARGET = /^(?:https?:\/\/|mailto:)/i;

/** What a relationship's internal target is: the part's kind, and whether it is a slide (by its root element). */
export type TargetOf = (partName: string) => PartKind | undefined;

export function followable(
  rel: Relationship,
  source: string,
  uses: ReadonlySet<RelationshipUse> | undefined,
  targetOf: TargetOf,
): boolean {
  const used = uses ?? new Set<RelationshipUse>();
  if (rel.external) {
    // Only a hyperlink to the web or a mail address, and only where a person clicks it.
    return (
      rel.type === REL.hyperlink &&
      CLICKABLE_TARGET.test(rel.target.trim()) &&
      used.size > 0 &&
      [...used].every((use) => use === 'hyperlink')
    );
  }
  if (targetEscape(source, rel.target) !== null || NEVER_FOLLOWED.has(rel.type)) return false;
  if (used.has('media') || used.has('embedded')) return false;
  const target = targetOf(resolveTarget(source, rel.target));
  const kind = target?.kind;
  if (kind === 'svg' || kind === 'media' || kind === 'postscript') return false;
  if (used.has('picture') && kind !== 'raster' && kind !== 'metafile') return false;
  // An internal hyperlink may only jump to another slide of the deck.
  if (used.has('hyperlink') || rel.type === REL.hyperlink) return isSlide(target);
  return true;
}

function isSlide(target: PartKind | undefined): boolean {
  return target?.kind === 'xml' && target.doc.root.name === 'p:sld';
}

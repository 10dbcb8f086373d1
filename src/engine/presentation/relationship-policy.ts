/**
 * What happens to each relationship when a slide is cloned (docs/powerpoint-rules.md
 * "What a cloned slide copies and what it shares"): parts that belong to one slide are copied with it, shared
 * resources (layouts, media, hyperlinks) are shared, and review comments are dropped (payload.md: review comments
 * are not carried over).
 */
import type { Relationship } from '../package/relationships.js';
import { descendants, type XmlElement } from '../xml/index.js';

const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const MS2007 = 'http://schemas.microsoft.com/office/2007/relationships/';
const MS2011 = 'http://schemas.microsoft.com/office/2011/relationships/';

export const SLIDE_REL = `${OFFICE}slide`;
export const NOTES_SLIDE_REL = `${OFFICE}notesSlide`;
export const NOTES_MASTER_REL = `${OFFICE}notesMaster`;
export const HANDOUT_MASTER_REL = `${OFFICE}handoutMaster`;
export const SLIDE_LAYOUT_REL = `${OFFICE}slideLayout`;
export const SLIDE_MASTER_REL = `${OFFICE}slideMaster`;
export const THEME_REL = `${OFFICE}theme`;
export const HYPERLINK_REL = `${OFFICE}hyperlink`;
export const IMAGE_REL = `${OFFICE}image`;
export const VBA_PROJECT_REL = 'http://schemas.microsoft.com/office/2006/relationships/vbaProject';
export const EXTENDED_PROPERTIES_REL = `${OFFICE}extended-properties`;

/** Copied with the slide, recursively (a chart brings its workbook, style and colours). */
const COPIED = new Set([
  `${OFFICE}chart`,
  'http://schemas.microsoft.com/office/2014/relationships/chartEx',
  `${OFFICE}diagramData`,
  `${OFFICE}diagramLayout`,
  `${OFFICE}diagramQuickStyle`,
  `${OFFICE}diagramColors`,
  `${MS2007}diagramDrawing`,
  `${OFFICE}oleObject`,
  `${OFFICE}package`,
  `${OFFICE}vmlDrawing`,
  `${OFFICE}tags`,
  `${OFFICE}control`,
  `${OFFICE}chartUserShapes`,
  `${OFFICE}themeOverride`,
  `${MS2011}chartStyle`,
  `${MS2011}chartColorStyle`,
  NOTES_SLIDE_REL,
]);

/** Not carried over to generated slides. */
const DROPPED = new Set([
  `${OFFICE}comments`,
  'http://schemas.microsoft.com/office/2018/10/relationships/comments',
]);

/**
 * Relationships a slide's XML names by r:id. When no attribute names one any more (its shape was removed),
 * it is dropped, and the part it reached is pruned with it. Implicit ones (layout, notes, VML, the SmartArt
 * drawing named from inside the diagram data) are never dropped this way
 * (docs/powerpoint-rules.md "Relationships no attribute names").
 */
const REFERENCED_BY_ID = new Set([
  `${OFFICE}image`,
  `${OFFICE}chart`,
  'http://schemas.microsoft.com/office/2014/relationships/chartEx',
  `${OFFICE}diagramData`,
  `${OFFICE}diagramLayout`,
  `${OFFICE}diagramQuickStyle`,
  `${OFFICE}diagramColors`,
  `${OFFICE}oleObject`,
  `${OFFICE}package`,
  `${OFFICE}hyperlink`,
  `${OFFICE}video`,
  `${OFFICE}audio`,
  `${MS2007}media`,
  `${OFFICE}slide`,
]);

export function isReferencedById(type: string): boolean {
  return REFERENCED_BY_ID.has(type);
}

/**
 * The relationships of a part whose tree is `root` that are still wanted: those the part names by id only while
 * an attribute of the tree carries their id (a removed shape's picture, chart or link goes, and its part with it),
 * and all the others. One pass over the tree, whatever the number of relationships.
 */
export function relationshipsStillNamed(rels: readonly Relationship[], root: XmlElement): Relationship[] {
  const byId = new Set(rels.filter((r) => isReferencedById(r.type)).map((r) => r.id));
  const named = new Set<string>();
  const look = (node: XmlElement): void => {
    for (const value of Object.values(node.attrs)) if (byId.has(value)) named.add(value);
  };
  if (byId.size > 0) {
    look(root);
    for (const node of descendants(root)) look(node);
  }
  return rels.filter((r) => !isReferencedById(r.type) || named.has(r.id));
}

export type ClonePolicy = 'copy' | 'share' | 'drop' | 'slide-link';

export function clonePolicy(type: string): ClonePolicy {
  if (type === SLIDE_REL) return 'slide-link';
  if (COPIED.has(type)) return 'copy';
  if (DROPPED.has(type)) return 'drop';
  return 'share';
}

/** `/ppt/charts/chart12.xml` → n ↦ `/ppt/charts/chart${n}.xml`: numbered like PowerPoint names its parts. */
export function numberedPattern(partName: string): (n: number) => string {
  const match = /^(.*?)(\d*)(\.[^./]+)?$/.exec(partName);
  const stem = match?.[1] ?? partName;
  const extension = match?.[3] ?? '';
  return (n) => `${stem}${n}${extension}`;
}

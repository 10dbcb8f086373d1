/**
 * PresentationML checks: id spaces of p:presentation and masters, shape ids and animation targets per
 * slide, slide -> layout and slide <-> notes relationships. Sources: docs/powerpoint-rules.md
 * "Slide, master and layout ids", "Ids inside a slide", "Removing a shape", "Notes slides and the notes master".
 */
import { is } from '../readers/namespaces.js';
import { type OpcPackage, readPartTree, relsOf, relTypeIs } from '../readers/opc-package.js';
import type { Report } from './part-xml-invariants.js';
import { attr, walk, type TreeElement } from '../readers/xml-tree.js';

const TWO_31 = 2 ** 31;
const TWO_32 = 2 ** 32;

export const CT_SLIDE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
export const CT_NOTES = 'application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml';

function parseId(raw: string | undefined): number {
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
}

/** p:sldId in [256, 2^31) unique [ST_SlideId]; masters and layouts share one space in [2^31, 2^32) [ST_SlideMasterId]. */
export function checkPresentationIds(
  pkg: OpcPackage,
  presentationPart: string,
  pres: TreeElement,
  report: Report,
): void {
  const slideIds = new Set<number>();
  const masterLayoutIds = new Map<number, string>();
  const claimMasterOrLayout = (raw: string | undefined, where: string, part: string): void => {
    // @id is optional on p:sldMasterId and p:sldLayoutId (ECMA-376 Part 1 schema; a deck among Apache POI's test
    // files omits it).
    if (raw === undefined) return;
    const id = parseId(raw);
    if (!(id >= TWO_31 && id < TWO_32))
      report('master-layout-id-out-of-range', part, `${where} id ${id} is not in [2^31, 2^32)`);
    const other = masterLayoutIds.get(id);
    if (other !== undefined)
      report('master-layout-id-duplicate', part, `${where} id ${id} is also used by ${other}`);
    masterLayoutIds.set(id, where);
  };
  const presRels = relsOf(pkg, presentationPart);
  for (const el of walk(pres)) {
    if (is(el, 'p', 'sldId')) {
      const id = parseId(attr(el, 'id'));
      if (!(id >= 256 && id < TWO_31))
        report(
          'slide-id-out-of-range',
          presentationPart,
          `p:sldId id="${attr(el, 'id')}" is not in [256, 2^31)`,
        );
      if (slideIds.has(id)) report('slide-id-duplicate', presentationPart, `p:sldId id ${id} appears twice`);
      slideIds.add(id);
    }
    if (is(el, 'p', 'sldMasterId')) {
      claimMasterOrLayout(attr(el, 'id'), 'p:sldMasterId', presentationPart);
      const relId = el.attrs.find((a) => a.local === 'id' && a.ns !== undefined)?.value;
      const masterPart = presRels.find((r) => r.id === relId)?.targetPart;
      const master = masterPart === undefined ? undefined : safeTree(pkg, masterPart);
      if (!master || masterPart === undefined) continue;
      for (const layoutId of walk(master)) {
        if (is(layoutId, 'p', 'sldLayoutId')) {
          // Not checked: "each layout id above its master's" (docs/powerpoint-rules.md
          // "Slide, master and layout ids") — PowerPoint-saved decks break it (poi/bug68703.pptx,
          // ShapeCrawler/032.pptx), so it is no repair trigger.
          claimMasterOrLayout(attr(layoutId, 'id'), `p:sldLayoutId in ${masterPart}`, masterPart);
        }
      }
    }
  }
}

function safeTree(pkg: OpcPackage, part: string): TreeElement | undefined {
  try {
    return readPartTree(pkg, part);
  } catch {
    return undefined; // malformed XML is reported by the per-part pass
  }
}

type AcBranch = { ac: TreeElement; branch: TreeElement };

function acBranches(el: TreeElement): AcBranch[] {
  const out: AcBranch[] = [];
  for (let e = el; e.parent; e = e.parent)
    if (is(e.parent, 'mc', 'AlternateContent')) out.push({ ac: e.parent, branch: e });
  return out;
}

/** True when two shapes sit in different branches (Choice / Fallback) of one AlternateContent. */
function alternatives(a: AcBranch[], b: AcBranch[]): boolean {
  return a.some((x) => b.some((y) => x.ac === y.ac && x.branch !== y.branch));
}

/** cNvPr ids unique per slide, except repeats across mc:Choice/mc:Fallback; spTgt/bld* spid resolve. */
export function checkSlideShapes(part: string, slide: TreeElement, report: Report): void {
  const byId = new Map<string, AcBranch[][]>();
  for (const el of walk(slide)) {
    if (!is(el, 'p', 'cNvPr')) continue;
    const id = attr(el, 'id') ?? '';
    const here = acBranches(el);
    const seen = byId.get(id) ?? [];
    if (seen.some((other) => !alternatives(other, here))) {
      report('shape-id-duplicate', part, `p:cNvPr id="${id}" is used by more than one shape`);
    }
    seen.push(here);
    byId.set(id, seen);
  }
  for (const el of walk(slide)) {
    const isTarget = is(el, 'p', 'spTgt') || (el.local.startsWith('bld') && is(el, 'p', el.local));
    const spid = isTarget ? attr(el, 'spid') : undefined;
    if (spid !== undefined && !byId.has(spid)) {
      report('anim-target-missing', part, `${el.name} spid="${spid}" names no shape on this slide`);
    }
  }
}

/** Exactly one slideLayout relationship per slide; slide <-> notes slide relationships agree. */
export function checkSlideRelationships(pkg: OpcPackage, slidePart: string, report: Report): void {
  const rels = relsOf(pkg, slidePart);
  const layouts = rels.filter((r) => relTypeIs(r, 'slideLayout'));
  if (layouts.length !== 1)
    report(
      'slide-layout-rel-count',
      slidePart,
      `has ${layouts.length} slideLayout relationships, expected 1`,
    );
  for (const notes of rels.filter((r) => relTypeIs(r, 'notesSlide') && r.targetPart)) {
    const back = relsOf(pkg, notes.targetPart ?? '').filter((r) => relTypeIs(r, 'slide'));
    if (!back.some((r) => r.targetPart?.toLowerCase() === slidePart.toLowerCase())) {
      report('notes-backlink', slidePart, `its notes slide ${notes.targetPart} does not point back at it`);
    }
  }
}

export function checkNotesSlide(pkg: OpcPackage, notesPart: string, report: Report): void {
  const slides = relsOf(pkg, notesPart).filter((r) => relTypeIs(r, 'slide'));
  const pointsBack = slides.some((s) =>
    relsOf(pkg, s.targetPart ?? '').some(
      (r) => relTypeIs(r, 'notesSlide') && r.targetPart?.toLowerCase() === notesPart.toLowerCase(),
    ),
  );
  if (!pointsBack) report('notes-backlink', notesPart, 'no slide it points at has it as its notes slide');
}

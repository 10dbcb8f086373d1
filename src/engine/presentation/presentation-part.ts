/**
 * Rewrites `ppt/presentation.xml` for the output: the slide list in payload order, the masters and embedded
 * fonts other templates bring, the notes master when one was created, sections and custom shows mapped onto
 * the output slides, the main part's content type, and docProps/app.xml (docs/powerpoint-rules.md,
 * "presentation.xml" and "The main part's content type matches the extension").
 */
import type { Warning } from '../errors.js';
import type { PackageBuilder } from '../package/package-builder.js';
import { relativeTarget, resolveTarget, type Relationship } from '../package/relationships.js';
import {
  child,
  cloneDocument,
  cloneElement,
  element,
  insertInOrder,
  removeNode,
  serializeXml,
  type XmlElement,
} from '../xml/index.js';
import type { ExportVersion } from '../payload/model.js';
import type { EmbeddedFamily } from '../fonts/embedded-fonts.js';
import { updateAppProperties } from './app-properties.js';
import { writeEmbeddedFonts } from './embedded-font-list.js';
import { newNotesMaster } from './notes-slide.js';
import {
  NOTES_MASTER_REL,
  SLIDE_MASTER_REL,
  SLIDE_REL,
  THEME_REL,
  VBA_PROJECT_REL,
} from './relationship-policy.js';
import { rewriteCustomShows, rewriteSections } from './sections.js';
import type { OutputSlide } from './output-slide.js';
import type { Template } from './template.js';
import type { PartEditor } from './template-brand.js';
import type { ImportedMaster, TemplateImport } from './template-import.js';

export interface FinishInput {
  template: Template;
  builder: PackageBuilder;
  slides: readonly OutputSlide[];
  exportVersion: ExportVersion | null;
  /** Part name of a notes master created for this output, if any. */
  notesMaster: string | null;
  /** Slide masters brought in with slides of other templates. */
  importedMasters: readonly ImportedMaster[];
  /** The other templates' imports, in order of first use: their embedded fonts join the deck's. */
  imports: readonly TemplateImport[];
  /** The font families the payload embeds (presentation.fonts). */
  fonts: readonly EmbeddedFamily[];
  /** How the brand changes a theme part of the deck template (branded-parts.ts), or null when it does not. */
  themeEditor: (theme: string) => PartEditor | null;
  warnings: Warning[];
}

/** CT_Presentation child order (docs/powerpoint-rules.md "Child order of presentation.xml"). */
const PRESENTATION_ORDER = [
  'p:sldMasterIdLst',
  'p:notesMasterIdLst',
  'p:handoutMasterIdLst',
  'p:sldIdLst',
  'p:sldSz',
  'p:notesSz',
  'p:smartTags',
  'p:embeddedFontLst',
  'p:custShowLst',
  'p:photoAlbum',
  'p:custDataLst',
  'p:kinsoku',
  'p:defaultTextStyle',
  'p:modifyVerifier',
  'p:extLst',
];

const DIGITAL_SIGNATURE_ORIGIN_REL =
  'http://schemas.openxmlformats.org/package/2006/relationships/digital-signature/origin';
const CT_MAIN = 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml';
const CT_NOTES_MASTER = 'application/vnd.openxmlformats-officedocument.presentationml.notesMaster+xml';
const CT_THEME = 'application/vnd.openxmlformats-officedocument.theme+xml';

export function finishPresentation(input: FinishInput): void {
  const { template, builder, slides } = input;
  const main = template.pkg.mainPartName;
  const root = cloneElement(template.presentation.root);
  const templateRels = template.relationships(main);
  const rels: Relationship[] = builder
    .relationships(main)
    .filter((r) => r.type !== SLIDE_REL && r.type !== VBA_PROJECT_REL);

  const relIdOf = new Map<string, string>();
  const nextRelId = relIdAllocator(rels);
  for (const slide of slides) {
    const id = nextRelId();
    rels.push({ id, type: SLIDE_REL, target: relativeTarget(main, slide.partName), external: false });
    relIdOf.set(slide.partName, id);
  }

  let sldIdLst = child(root, 'p:sldIdLst');
  if (!sldIdLst) {
    sldIdLst = element('p:sldIdLst');
    insertInOrder(root, sldIdLst, PRESENTATION_ORDER);
  }
  sldIdLst.children = slides.map((s) =>
    element('p:sldId', { id: String(s.id), 'r:id': relIdOf.get(s.partName) ?? '' }),
  );

  const masterList = child(root, 'p:sldMasterIdLst');
  for (const master of input.importedMasters) {
    const id = nextRelId();
    rels.push({ id, type: SLIDE_MASTER_REL, target: relativeTarget(main, master.partName), external: false });
    masterList?.children.push(element('p:sldMasterId', { id: String(master.id), 'r:id': id }));
  }

  writeEmbeddedFonts(
    { main, root, rels, nextRelId, builder, place: (el) => insertInOrder(root, el, PRESENTATION_ORDER) },
    input.fonts,
    input.imports,
  );

  if (input.notesMaster) addNotesMaster(input.notesMaster, root, rels, nextRelId(), input);

  // Template slide → its output clones, in output order: sections and custom shows follow them.
  const clonesOf = new Map<string, OutputSlide[]>();
  for (const slide of slides) {
    if (!slide.source) continue;
    const list = clonesOf.get(slide.source.partName) ?? [];
    list.push(slide);
    clonesOf.set(slide.source.partName, list);
  }
  rewriteSections(root, slides, template.slides);
  rewriteCustomShows(root, (relId) => {
    const rel = templateRels.find((r) => r.id === relId);
    if (!rel) return [];
    return (clonesOf.get(resolveTarget(main, rel.target)) ?? []).map((s) => relIdOf.get(s.partName) ?? '');
  });

  builder.setRelationships(main, rels);
  builder.setPart(main, serializeXml({ prolog: template.presentation.prolog, root }), CT_MAIN);
  // A .potx/.ppsx/.pptm template written as .pptx needs the plain presentation type, and no macros
  // (docs/powerpoint-rules.md "The main part's content type matches the extension").
  builder.contentTypes.setOverride(main, CT_MAIN);
  updateAppProperties(template, builder, slides, input.exportVersion);
}

/**
 * A digital signature over the template no longer matches the generated deck: drop it (it is pruned). Done
 * before the output opens, which writes the package relationships first.
 */
export function dropTemplateSignature(builder: PackageBuilder): void {
  builder.setRelationships(
    '/',
    builder.relationships('/').filter((r) => r.type !== DIGITAL_SIGNATURE_ORIGIN_REL),
  );
}

function addNotesMaster(
  partName: string,
  root: XmlElement,
  rels: Relationship[],
  relId: string,
  { template, builder, themeEditor }: FinishInput,
): void {
  const notesSz = child(root, 'p:notesSz');
  const size = { cx: Number(notesSz?.attrs.cx) || 6858000, cy: Number(notesSz?.attrs.cy) || 9144000 };
  builder.setPart(partName, newNotesMaster(size), CT_NOTES_MASTER);
  // The notes master needs a theme of its own: a copy of the first slide master's theme, branded as it is.
  const master = template.related(template.pkg.mainPartName, SLIDE_MASTER_REL);
  const theme = master ? template.related(master, THEME_REL) : null;
  const masterRels: Relationship[] = [];
  if (theme) {
    const themeCopy = builder.freeName((n) => `/ppt/theme/theme${n}.xml`);
    // The copy sits beside the original, so its relationships (a background picture) keep their targets.
    const themeRels = template.relationships(theme).map((rel) => ({ ...rel }));
    const edit = themeEditor(theme);
    if (edit) builder.setPart(themeCopy, edit(cloneDocument(template.xml(theme)), themeCopy, themeRels));
    else builder.copyPart(template.pkg, theme, themeCopy);
    builder.contentTypes.setOverride(themeCopy, CT_THEME);
    if (themeRels.length > 0) builder.setRelationships(themeCopy, themeRels);
    masterRels.push({
      id: 'rId1',
      type: THEME_REL,
      target: relativeTarget(partName, themeCopy),
      external: false,
    });
  }
  builder.setRelationships(partName, masterRels);
  rels.push({
    id: relId,
    type: NOTES_MASTER_REL,
    target: relativeTarget(template.pkg.mainPartName, partName),
    external: false,
  });
  const list = element('p:notesMasterIdLst', {}, [element('p:notesMasterId', { 'r:id': relId })]);
  const existing = child(root, 'p:notesMasterIdLst');
  if (existing) removeNode(root, existing);
  insertInOrder(root, list, PRESENTATION_ORDER);
}

/** Hands out relationship ids not used by `rels` (computed once: a deck may have thousands of slides). */
function relIdAllocator(rels: readonly Relationship[]): () => string {
  const taken = new Set(rels.map((r) => r.id));
  let n = 1;
  return () => {
    while (taken.has(`rId${n}`)) n++;
    taken.add(`rId${n}`);
    return `rId${n}`;
  };
}

/**
 * docProps/app.xml: slide, notes and hidden-slide counts, and the application version that `export_version`
 * selects (without it the template's stays: LibreOffice reads it to decide whether a chart was written by Office
 * 2007, whose omitted chart settings mean other things). The per-slide title lists (TitlesOfParts/HeadingPairs)
 * are dropped rather than left stale: they must agree with each other (docs/powerpoint-rules.md
 * "docProps/app.xml") and PowerPoint rebuilds them on save.
 */
import type { PackageBuilder } from '../package/package-builder.js';
import { resolveTarget } from '../package/relationships.js';
import type { ExportVersion } from '../payload/model.js';
import {
  childElements,
  cloneDocument,
  element,
  localName,
  serializeXml,
  text,
  type XmlElement,
} from '../xml/index.js';
import { EXTENDED_PROPERTIES_REL } from './relationship-policy.js';
import type { OutputSlide } from './output-slide.js';
import type { Template } from './template.js';

const APP_VERSION: Record<ExportVersion, string> = {
  Pptx2010: '14.0000',
  Pptx2013: '15.0000',
  Pptx2019: '16.0000',
};

export function updateAppProperties(
  template: Template,
  builder: PackageBuilder,
  slides: readonly OutputSlide[],
  version: ExportVersion | null,
): void {
  const rel = template.relationships('/').find((r) => r.type === EXTENDED_PROPERTIES_REL && !r.external);
  if (!rel) return;
  const partName = resolveTarget('/', rel.target);
  if (!template.pkg.has(partName)) return;
  const doc = cloneDocument(template.xml(partName));
  const root = doc.root;
  const prefix = root.name.includes(':') ? root.name.slice(0, root.name.indexOf(':') + 1) : '';
  const counts: Record<string, number> = {
    Slides: slides.length,
    Notes: slides.filter((s) => s.hasNotes).length,
    HiddenSlides: slides.filter((s) => s.hidden).length,
  };
  root.children = root.children.filter(
    (n) => !(n.kind === 'element' && ['HeadingPairs', 'TitlesOfParts'].includes(localName(n.name))),
  );
  for (const [name, value] of Object.entries(counts)) setValue(root, prefix + name, String(value));
  if (version !== null) setValue(root, `${prefix}AppVersion`, APP_VERSION[version]);
  builder.setPart(partName, serializeXml(doc));
}

function setValue(root: XmlElement, name: string, value: string): void {
  const existing = childElements(root, name)[0];
  if (existing) existing.children = [text(value)];
  else root.children.push(element(name, {}, [text(value)])); // CT_Properties is an xsd:all: any order is valid
}

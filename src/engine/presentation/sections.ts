/**
 * Sections and custom shows, rewritten onto the output slides (docs/powerpoint-rules.md
 * "Sections, custom shows and links to dropped slides"). Sections refer to slides by slide id and must list the
 * slides in presentation order as contiguous runs; custom shows refer to them by presentation relationship id.
 */
import { randomUUID } from 'node:crypto';
import { child, childElements, element, firstDescendant, removeNode, type XmlElement } from '../xml/index.js';
import type { OutputSlide } from './output-slide.js';
import type { TemplateSlide } from './template.js';

const SECTION_EXT_URI = '{521415D9-36F7-43E2-AB2F-B90AF26B5E84}';

export function rewriteSections(
  root: XmlElement,
  slides: readonly OutputSlide[],
  templateSlides: readonly TemplateSlide[],
): void {
  const extLst = child(root, 'p:extLst');
  const ext = extLst && childElements(extLst, 'p:ext').find((e) => e.attrs.uri === SECTION_EXT_URI);
  const sectionLst = ext && firstDescendant(ext, 'p14:sectionLst');
  if (!extLst || !ext || !sectionLst) return;
  const sections = childElements(sectionLst, 'p14:section');
  if (sections.length === 0) return;

  const sectionOfTemplateId = new Map<number, XmlElement>();
  for (const section of sections) {
    const list = child(section, 'p14:sldIdLst');
    for (const sldId of list ? childElements(list, 'p14:sldId') : [])
      sectionOfTemplateId.set(Number(sldId.attrs.id), section);
  }
  const idOfPart = new Map(templateSlides.map((s) => [s.partName, s.id]));

  const runs: { section: XmlElement; ids: number[] }[] = [];
  let current: XmlElement = sections[0]!;
  for (const slide of slides) {
    const templateId = slide.source ? idOfPart.get(slide.source.partName) : undefined;
    current = (templateId !== undefined ? sectionOfTemplateId.get(templateId) : undefined) ?? current;
    const last = runs[runs.length - 1];
    if (last && last.section === current) last.ids.push(slide.id);
    else runs.push({ section: current, ids: [slide.id] });
  }

  const seen = new Set<XmlElement>();
  sectionLst.children = runs.map(({ section, ids }) => {
    // A section split into two runs by the new order gets a second entry with the same name and a fresh id.
    const attrs = seen.has(section)
      ? { ...section.attrs, id: `{${randomUUID().toUpperCase()}}` }
      : { ...section.attrs };
    seen.add(section);
    return element(section.name, attrs, [
      element(
        'p14:sldIdLst',
        {},
        ids.map((id) => element('p14:sldId', { id: String(id) })),
      ),
    ]);
  });
  if (runs.length === 0) {
    removeNode(extLst, ext);
    if (childElements(extLst).length === 0) removeNode(root, extLst);
  }
}

export function rewriteCustomShows(
  root: XmlElement,
  outputRelIds: (templateRelId: string) => string[],
): void {
  const list = child(root, 'p:custShowLst');
  if (!list) return;
  for (const show of childElements(list, 'p:custShow')) {
    const sldLst = child(show, 'p:sldLst');
    if (!sldLst) continue;
    sldLst.children = childElements(sldLst, 'p:sld').flatMap((sld) =>
      outputRelIds(sld.attrs['r:id'] ?? '').map((id) => element('p:sld', { 'r:id': id })),
    );
    if (sldLst.children.length === 0) removeNode(list, show);
  }
  if (childElements(list, 'p:custShow').length === 0) removeNode(root, list);
}

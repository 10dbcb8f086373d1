/**
 * What a renderer would act on inside a part, disarmed (docs/security.md, "What LibreOffice gets"), from what
 * part-survey.ts found:
 * - hyperlinks (`a:hlinkClick`, `a:hlinkHover`, `a:hlinkMouseOver`) are removed unless they go to a web page or
 *   a mail address through a relationship the copy kept, or jump within the slide show (ECMA-376 Part 1
 *   §21.1.2.3.5, the `ppaction://` actions of §19.5); a program, a macro, a file, an OLE verb, `.uno:` commands
 *   and the like are removed with their element, and the text they were on stays as text;
 * - a field of type `file…` (the document's path on the renderer's disk, §21.1.2.2.4) loses its type, so it
 *   shows the text saved with it;
 * - any attribute, and any text a slide does not show, whose value is a local or LibreOffice URL (`file:`, a
 *   UNC or drive path, `vnd.sun.star.…`, `.uno:`, `macro:` …) is emptied: whatever element a renderer would
 *   read it from, there is nothing left to open.
 */
import type { Relationship } from '../package/relationships.js';
import type { XmlElement, XmlNode } from '../xml/index.js';
import type { PartSurvey } from './part-survey.js';
import { CLICKABLE_TARGET } from './relationship-judgement.js';

/** Jumps within the deck: to a slide (with the relationship to it), to the next, previous, first or last, to a custom show. */
const SLIDE_JUMP = /^ppaction:\/\/hlinksldjump$/i;
const SHOW_JUMP =
  /^ppaction:\/\/(?:noaction|hlinkshowjump\?jump=(?:nextslide|previousslide|firstslide|lastslide|lastslideviewed|endshow)|customshow\?id=\d+(?:&return=(?:true|false))?)$/i;

/** Disarms the part `survey` was made of, in place; `rels` are its relationships the copy kept. Returns how many things went. */
export function disarmPart(survey: PartSurvey, rels: ReadonlyMap<string, Relationship>): number {
  let disarmed = 0;
  for (const [el, name] of survey.attributes) {
    el.attrs[name] = '';
    disarmed++;
  }
  for (const field of survey.fields) {
    if (!/^\s*file/i.test(field.attrs.type ?? '')) continue;
    delete field.attrs.type;
    disarmed++;
  }
  // Removed children are gathered by parent, each parent's children filtered once: linear however many go.
  const removed = new Map<XmlElement, Set<XmlNode>>();
  const remove = (parent: XmlElement, node: XmlNode): void => {
    const nodes = removed.get(parent);
    if (nodes) nodes.add(node);
    else removed.set(parent, new Set([node]));
    disarmed++;
  };
  for (const [parent, text] of survey.texts) remove(parent, text);
  for (const [parent, link] of survey.hyperlinks) if (!safeHyperlink(link, rels)) remove(parent, link);
  for (const [parent, nodes] of removed) parent.children = parent.children.filter((node) => !nodes.has(node));
  return disarmed;
}

function safeHyperlink(link: XmlElement, rels: ReadonlyMap<string, Relationship>): boolean {
  const id = link.attrs['r:id'] ?? '';
  const action = (link.attrs.action ?? '').trim();
  const rel = id === '' ? undefined : rels.get(id);
  if (id !== '' && !rel) return false;
  if (action === '') return !rel || (rel.external && CLICKABLE_TARGET.test(rel.target.trim()));
  if (SLIDE_JUMP.test(action)) return rel !== undefined && !rel.external;
  return SHOW_JUMP.test(action) && !rel;
}

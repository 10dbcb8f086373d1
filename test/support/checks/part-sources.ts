/**
 * Which template part each part of an output deck came from, so that a flaw the template already has is forgiven
 * on the copies of the part that has it, and nowhere else (docs/powerpoint-rules.md
 * "How the tests check these rules": the checks compare the output with its template). Output parts are renamed
 * (template slide 7 becomes slide 3), cloned (three copies of one slide, each with its own chart) and imported
 * from other templates, so names say nothing. Instead:
 *
 * - a slide comes from the template slides whose content it matches best: its elements with their attributes
 *   (shape ids and names, geometry, formatting) and its text, measured as the share of the output slide's
 *   features that the template slide has too. Filling text or removing shapes lowers every template slide's
 *   share, not the true source's rank. Several slides that match equally well are all kept as candidates;
 * - any other part comes from the template parts that its referrer's sources reach by a relationship with the
 *   same Id and type (docs/powerpoint-rules.md "Cloned slides keep their relationship ids"), or the only one of
 *   that type;
 * - a part nothing reaches comes from a template part with identical bytes;
 * - the package root and what hangs off it come from the first template: the deck is built on it.
 *
 * A flaw is then forgiven on an output part only as often as every candidate source has it (see `allowedBy`):
 * when the mapping is unsure, the check gets stricter, never looser. Independent of src/engine, like the rest
 * of this folder.
 */
import { createHash } from 'node:crypto';
import { unzipSync, zipSync } from 'fflate';
import {
  contentTypeOf,
  isRelsPart,
  openPackage,
  readPart,
  sourceOfRelsPart,
  type OpcPackage,
  type Relationship,
} from '../readers/opc-package.js';
import { CT_SLIDE } from './presentation-invariants.js';
import { decodeEntities, decodeXmlBytes } from '../readers/xml-tree.js';

/** A part of one of the templates: its index in the template list and its part name, lower-cased. */
export type SourcePart = `${number}:${string}`;

export interface PartSources {
  /** The template parts an output part (or its .rels part, or a name that is no part) may have come from. */
  of(outputPart: string): readonly SourcePart[];
}

const sourcePart = (template: number, part: string): SourcePart => `${template}:${part.toLowerCase()}`;

/** '/ppt/slides/slide1.xml' -> '/ppt/slides/_rels/slide1.xml.rels'; '/' -> '/_rels/.rels'. */
function relsPartOf(part: string): string {
  return part === '/' ? '/_rels/.rels' : part.replace(/\/([^/]*)$/, '/_rels/$1.rels');
}

/**
 * The content features of a slide: every start tag with its attributes (shapes with their ids and names,
 * geometry, formatting, relationship ids) and every text run's text. Filling a shape replaces a few of them;
 * the rest still say which template slide this was.
 */
function slideFeatures(pkg: OpcPackage, part: string): Map<string, number> {
  const xml = decodeXmlBytes(readPart(pkg, part) ?? new Uint8Array());
  const features = new Map<string, number>();
  const add = (feature: string): void => void features.set(feature, (features.get(feature) ?? 0) + 1);
  for (const [, name, attrs] of xml.matchAll(
    /<([\w.-]+(?::[\w.-]+)?)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g,
  )) {
    const pairs = [...(attrs ?? '').matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map(
      ([, n, v1, v2]) => `${n}=${decodeEntities(v1 ?? v2 ?? '')}`,
    );
    add(`<${name} ${pairs.sort().join(' ')}`);
  }
  for (const [, text] of xml.matchAll(/<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g))
    add(`text ${decodeEntities(text ?? '')}`);
  return features;
}

/** Share of `output`'s features (counted with multiplicity) that `candidate` has too. */
function share(output: Map<string, number>, candidate: Map<string, number>): number {
  let total = 0;
  let common = 0;
  for (const [feature, n] of output) {
    total += n;
    common += Math.min(n, candidate.get(feature) ?? 0);
  }
  return total === 0 ? 0 : common / total;
}

/** Relationships by source part name, lower-cased ('/' for the package's own). */
function relsByLowerName(pkg: OpcPackage): Map<string, Relationship[]> {
  return new Map([...pkg.rels].map(([source, rels]) => [source.toLowerCase(), rels]));
}

function partsOfType(pkg: OpcPackage, contentType: string): string[] {
  return [...pkg.partsByLowerName.values()].filter((p) => contentTypeOf(pkg, p) === contentType);
}

interface TemplateIndex {
  pkg: OpcPackage;
  rels: Map<string, Relationship[]>;
  slides: { part: string; features: Map<string, number> }[];
  byHash: Map<string, string[]>;
}

const templateIndexes = new Map<string, TemplateIndex>();

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The template as a ZIP of only the entries that inflate (for a template with a corrupt entry). */
export function readableEntries(bytes: Uint8Array): Uint8Array {
  const names: string[] = [];
  unzipSync(bytes, { filter: (file) => (names.push(file.name), false) });
  const readable: Record<string, Uint8Array> = {};
  for (const name of names) {
    try {
      Object.assign(readable, unzipSync(bytes, { filter: (file) => file.name === name }));
    } catch {
      // left out: nothing in the output can be a faithful copy of it
    }
  }
  return zipSync(readable);
}

/**
 * A template with a corrupt entry (of a part the output does not use, a dropped slide's) is compared by the rest
 * of its entries.
 */
function openTemplate(bytes: Uint8Array): OpcPackage {
  try {
    return openPackage(bytes, () => undefined);
  } catch {
    return openPackage(readableEntries(bytes), () => undefined);
  }
}

function indexTemplate(bytes: Uint8Array): TemplateIndex {
  const key = sha256(bytes);
  let index = templateIndexes.get(key);
  if (!index) {
    const pkg = openTemplate(bytes);
    const byHash = new Map<string, string[]>();
    for (const part of pkg.partsByLowerName.values()) {
      const hash = sha256(readPart(pkg, part) ?? new Uint8Array());
      byHash.set(hash, [...(byHash.get(hash) ?? []), part]);
    }
    const slides = partsOfType(pkg, CT_SLIDE).map((part) => ({ part, features: slideFeatures(pkg, part) }));
    index = { pkg, rels: relsByLowerName(pkg), slides, byHash };
    templateIndexes.set(key, index);
  }
  return index;
}

/** The template slides `features` matches best (all of them when it matches none at all). */
function slideCandidates(features: Map<string, number>, templates: readonly TemplateIndex[]): SourcePart[] {
  let best = -1;
  let found: SourcePart[] = [];
  templates.forEach((t, i) => {
    for (const slide of t.slides) {
      const score = share(features, slide.features);
      if (score > best) [best, found] = [score, []];
      if (score === best) found.push(sourcePart(i, slide.part));
    }
  });
  return found;
}

/** Maps every part of `output` to the template parts it may have come from. `templates[0]` is the deck's own. */
export function mapPartSources(output: OpcPackage, templateBytes: readonly Uint8Array[]): PartSources {
  const templates = templateBytes.map(indexTemplate);
  const outputRels = relsByLowerName(output);
  const sources = new Map<string, Set<SourcePart>>();
  const queue: string[] = [];
  const addSources = (part: string, refs: Iterable<SourcePart>): void => {
    const key = part.toLowerCase();
    const known = sources.get(key) ?? new Set<SourcePart>();
    const before = known.size;
    for (const ref of refs) known.add(ref);
    sources.set(key, known);
    if (known.size > before) queue.push(part);
  };

  if (templates.length > 0) addSources('/', [sourcePart(0, '/')]);
  const outputSlides = new Set(partsOfType(output, CT_SLIDE).map((p) => p.toLowerCase()));
  for (const slide of partsOfType(output, CT_SLIDE))
    addSources(slide, slideCandidates(slideFeatures(output, slide), templates));

  // Along relationships: a target's sources are what its referrer's sources reach. Slides have their own.
  const propagate = (): void => {
    for (let part = queue.shift(); part !== undefined; part = queue.shift()) {
      const from = [...(sources.get(part.toLowerCase()) ?? [])];
      const rels = outputRels.get(part.toLowerCase()) ?? [];
      for (const rel of rels) {
        const target = rel.targetPart?.toLowerCase();
        if (target === undefined || outputSlides.has(target) || !output.partsByLowerName.has(target))
          continue;
        const sameType = rels.filter((r) => r.type === rel.type).length;
        addSources(
          target,
          from.flatMap((ref) => relatedSources(templates, ref, rel.id, rel.type, sameType)),
        );
      }
    }
  };
  propagate();
  // Parts nothing reaches (or reaches only from parts of unknown origin): a template part with the same bytes.
  for (const part of output.partsByLowerName.values()) {
    if ((sources.get(part.toLowerCase())?.size ?? 0) > 0 || isRelsPart(part)) continue;
    const hash = sha256(readPart(output, part) ?? new Uint8Array());
    addSources(
      part,
      templates.flatMap((t, i) => (t.byHash.get(hash) ?? []).map((p) => sourcePart(i, p))),
    );
  }
  propagate();

  return {
    of(outputPart: string): readonly SourcePart[] {
      if (isRelsPart(outputPart)) {
        return [...(sources.get(sourceOfRelsPart(outputPart).toLowerCase()) ?? [])].map((ref) => {
          const [template, part] = splitSourcePart(ref);
          return sourcePart(template, relsPartOf(part));
        });
      }
      const known = sources.get(outputPart.toLowerCase());
      if (known) return [...known];
      // Not a part of the output (a ZIP folder entry, an Override naming nothing): the same name in the deck's
      // own template.
      return output.partsByLowerName.has(outputPart.toLowerCase()) || templates.length === 0
        ? []
        : [sourcePart(0, outputPart)];
    },
  };
}

function splitSourcePart(ref: SourcePart): [number, string] {
  const colon = ref.indexOf(':');
  return [Number(ref.slice(0, colon)), ref.slice(colon + 1)];
}

/** Targets of `ref`'s relationship with this Id and type, or of its only one of that type when that is unambiguous. */
function relatedSources(
  templates: readonly TemplateIndex[],
  ref: SourcePart,
  id: string,
  type: string,
  sameTypeInOutput: number,
): SourcePart[] {
  const [template, part] = splitSourcePart(ref);
  const index = templates[template];
  if (!index) return [];
  const pkg = index.pkg;
  const rels = (index.rels.get(part) ?? []).filter(
    (r) =>
      r.type === type && r.targetPart !== undefined && pkg.partsByLowerName.has(r.targetPart.toLowerCase()),
  );
  const sameId = rels.filter((r) => r.id === id);
  const chosen = sameId.length > 0 ? sameId : sameTypeInOutput === 1 && rels.length === 1 ? rels : [];
  return chosen.map((r) => sourcePart(template, r.targetPart ?? ''));
}

/**
 * How many of a finding (`key`) an output part may have: as many as the least of its candidate sources has,
 * and none when it has no known source.
 */
function allowedBy(candidates: readonly SourcePart[], count: (source: SourcePart) => number): number {
  return candidates.length === 0 ? 0 : Math.min(...candidates.map(count));
}

/** How often each template part has each finding; `perTemplate[i]` are the findings of template i. */
export type TemplateCounts = (source: SourcePart, key: string) => number;

export function countTemplateFindings<T>(
  perTemplate: readonly (readonly T[])[],
  partOf: (finding: T) => string,
  keyOf: (finding: T) => string,
): TemplateCounts {
  const counts = new Map<string, number>();
  const slot = (source: SourcePart, key: string): string => `${source}\u0000${key}`;
  perTemplate.forEach((findings, template) => {
    for (const finding of findings) {
      const at = slot(sourcePart(template, partOf(finding)), keyOf(finding));
      counts.set(at, (counts.get(at) ?? 0) + 1);
    }
  });
  return (source, key) => counts.get(slot(source, key)) ?? 0;
}

/**
 * The findings of an output beyond what their parts' sources allow: per output part and key, the first
 * `allowedBy(...)` findings are the template's own, the rest are new.
 */
export function newFindings<T>(
  findings: readonly T[],
  partOf: (finding: T) => string,
  keyOf: (finding: T) => string,
  sources: PartSources,
  templateCounts: TemplateCounts,
): T[] {
  const seen = new Map<string, number>();
  return findings.filter((finding) => {
    const part = partOf(finding);
    const key = keyOf(finding);
    const slot = `${part.toLowerCase()}\u0000${key}`;
    const n = (seen.get(slot) ?? 0) + 1;
    seen.set(slot, n);
    return n > allowedBy(sources.of(part), (source) => templateCounts(source, key));
  });
}

/**
 * Open Packaging Conventions reading for the test-side checker (independent of src/engine/package).
 * Part names here are package-absolute ('/ppt/slides/slide1.xml'); ZIP item names lack the slash.
 */
import { unzipSync } from 'fflate';
import { attr, decodeXmlBytes, readXmlTree, walk, type TreeElement } from './xml-tree.js';

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
  /** Resolved part name for internal targets ('/ppt/slideLayouts/slideLayout1.xml'). */
  targetPart: string | undefined;
}

export interface OpcPackage {
  /** ZIP item name -> bytes, as stored (directory entries included). */
  entries: Map<string, Uint8Array>;
  /** Part name (lower-cased) -> part name as written, for case-insensitive lookups (ECMA-376 Part 2 §9.1.1). */
  partsByLowerName: Map<string, string>;
  defaults: Map<string, string>; // extension (lower) -> content type
  overrides: Map<string, string>; // part name (lower) -> content type
  /** Source part name ('/' for package rels) -> relationships of its .rels part. */
  rels: Map<string, Relationship[]>;
}

export const CONTENT_TYPES = '[Content_Types].xml';

export function partNameOf(itemName: string): string {
  return '/' + itemName;
}

export function isRelsPart(partName: string): boolean {
  return /(^|\/)_rels\/[^/]*\.rels$/i.test(partName);
}

/** '/ppt/slides/_rels/slide1.xml.rels' -> '/ppt/slides/slide1.xml'; '/_rels/.rels' -> '/'. */
export function sourceOfRelsPart(relsPart: string): string {
  const m = /^(.*\/)_rels\/([^/]*)\.rels$/i.exec(relsPart);
  if (!m) return relsPart;
  return (m[1] ?? '/') + (m[2] ?? '') || '/';
}

/** Resolves an internal target against the source part's folder; a leading '/' is package-absolute. */
export function resolveTarget(sourcePart: string, target: string): string {
  const noFragment = target.split('#')[0] ?? '';
  // A same-document reference ('#_ftn1', seen in poi/with_japanese.pptx) names the source part itself [RFC 3986 §4.4].
  if (noFragment === '') return sourcePart;
  let decoded = noFragment;
  try {
    decoded = decodeURIComponent(noFragment);
  } catch {
    // Malformed percent-escapes: keep the raw text so the existence check reports it.
  }
  const base = decoded.startsWith('/') ? [] : sourcePart.split('/').slice(0, -1);
  const segments = [...base];
  for (const seg of decoded.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') segments.pop();
    else segments.push(seg);
  }
  return '/' + segments.filter((s) => s !== '').join('/');
}

export function contentTypeOf(pkg: OpcPackage, partName: string): string | undefined {
  const override = pkg.overrides.get(partName.toLowerCase());
  if (override !== undefined) return override;
  const last = partName.slice(partName.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot < 0 ? undefined : pkg.defaults.get(last.slice(dot + 1).toLowerCase());
}

export function readPart(pkg: OpcPackage, partName: string): Uint8Array | undefined {
  const written = pkg.partsByLowerName.get(partName.toLowerCase());
  return written === undefined ? undefined : pkg.entries.get(written.slice(1));
}

export function readPartTree(pkg: OpcPackage, partName: string): TreeElement | undefined {
  const bytes = readPart(pkg, partName);
  return bytes && readXmlTree(decodeXmlBytes(bytes));
}

/** pkg.rels by lower-cased source part, built once per package: a deck may have 40 000 rels parts. */
const relsByLowerSource = new WeakMap<OpcPackage, Map<string, Relationship[]>>();

export function relsOf(pkg: OpcPackage, sourcePart: string): Relationship[] {
  let index = relsByLowerSource.get(pkg);
  if (!index) {
    index = new Map();
    for (const [source, rels] of pkg.rels) {
      const key = source.toLowerCase();
      if (!index.has(key)) index.set(key, rels);
    }
    relsByLowerSource.set(pkg, index);
  }
  const rels = index.get(sourcePart.toLowerCase());
  if (rels) return rels;
  return [];
}

export function relTypeIs(rel: Relationship, shortType: string): boolean {
  return rel.type.endsWith('/' + shortType);
}

function parseRels(sourcePart: string, bytes: Uint8Array): Relationship[] {
  const root = readXmlTree(decodeXmlBytes(bytes));
  const out: Relationship[] = [];
  for (const el of walk(root)) {
    if (el.local !== 'Relationship') continue;
    const target = attr(el, 'Target') ?? '';
    const external = attr(el, 'TargetMode') === 'External';
    out.push({
      id: attr(el, 'Id') ?? '',
      type: attr(el, 'Type') ?? '',
      target,
      external,
      targetPart: external ? undefined : resolveTarget(sourcePart, target),
    });
  }
  return out;
}

/**
 * Opens the ZIP and reads content types and every .rels part. Throws when the ZIP does not open;
 * a malformed [Content_Types].xml or .rels part is reported through `problems` instead.
 */
export function openPackage(
  bytes: Uint8Array,
  problems: (kind: string, part: string, msg: string) => void,
): OpcPackage {
  const names: string[] = [];
  const entries = new Map(
    Object.entries(
      unzipSync(bytes, {
        filter: (f) => {
          names.push(f.name);
          return true;
        },
      }),
    ),
  );
  // ZIP item names must be unique, and part names unique case-insensitively (ECMA-376 Part 2 §9.1.1,
  // Annex C).
  const seen = new Map<string, string>();
  for (const name of names) {
    const other = seen.get(name.toLowerCase());
    if (other === name) problems('zip-duplicate-entry', partNameOf(name), 'the ZIP holds this item twice');
    else if (other !== undefined)
      problems('part-name-collision', partNameOf(name), `differs from ${partNameOf(other)} only by case`);
    seen.set(name.toLowerCase(), name);
  }
  const pkg: OpcPackage = {
    entries,
    partsByLowerName: new Map(),
    defaults: new Map(),
    overrides: new Map(),
    rels: new Map(),
  };
  for (const item of entries.keys()) {
    if (!item.endsWith('/')) pkg.partsByLowerName.set(partNameOf(item).toLowerCase(), partNameOf(item));
  }
  const ct = entries.get(CONTENT_TYPES);
  if (!ct) problems('content-types-missing', '/' + CONTENT_TYPES, 'the package has no [Content_Types].xml');
  else {
    try {
      for (const el of walk(readXmlTree(decodeXmlBytes(ct)))) {
        const type = attr(el, 'ContentType') ?? '';
        if (el.local === 'Default') pkg.defaults.set((attr(el, 'Extension') ?? '').toLowerCase(), type);
        if (el.local === 'Override') pkg.overrides.set((attr(el, 'PartName') ?? '').toLowerCase(), type);
      }
    } catch (e) {
      problems('xml-malformed', '/' + CONTENT_TYPES, (e as Error).message);
    }
  }
  for (const [item, data] of entries) {
    const part = partNameOf(item);
    if (!isRelsPart(part)) continue;
    try {
      pkg.rels.set(sourceOfRelsPart(part), parseRels(sourceOfRelsPart(part), data));
    } catch (e) {
      problems('xml-malformed', part, (e as Error).message);
    }
  }
  return pkg;
}

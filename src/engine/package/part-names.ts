/**
 * Part names (ECMA-376 Part 2 §9.1.1, docs/powerpoint-rules.md "Part names"): absolute
 * ('/ppt/slides/slide1.xml'), compared as case-insensitive ASCII, and URIs, so '/a%20b.png' and '/a b.png' name
 * the same part. The ZIP item name is the part name without its leading '/' (Part 2 Annex C).
 */

/** The comparison key of a part name: percent-decoded and lower-cased (OPC part name equivalence, M1.12). */
export function partKey(partName: string): string {
  return decodePercent(partName).toLowerCase();
}

/** Percent-decodes a URI path; a malformed escape leaves the text as written rather than failing. */
export function decodePercent(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** '/ppt/slides/slide1.xml' -> 'ppt/slides/slide1.xml'. */
export function itemName(partName: string): string {
  return partName.startsWith('/') ? partName.slice(1) : partName;
}

/** Lower-case extension without the dot ('/ppt/media/image1.PNG' -> 'png'), '' when there is none. */
export function extensionOf(partName: string): string {
  const slash = partName.lastIndexOf('/');
  const dot = partName.lastIndexOf('.');
  return dot > slash ? partName.slice(dot + 1).toLowerCase() : '';
}

/**
 * The lowest free name pattern(n) for n >= start. `taken` receives the candidate lower-cased, so a caller's
 * set of lower-cased names makes the scan case-insensitive: `image1.PNG` blocks `image1.png` (M1.12).
 */
export function freePartName(
  taken: (lowerCaseName: string) => boolean,
  pattern: (n: number) => string,
  start = 1,
): string {
  for (let n = start; ; n++) {
    const candidate = pattern(n);
    if (!taken(candidate.toLowerCase())) return candidate;
  }
}

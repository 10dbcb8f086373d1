/** Namespace URIs the checker matches on, transitional first, Strict (ISO 29500) second. */
export const NS = {
  p: [
    'http://schemas.openxmlformats.org/presentationml/2006/main',
    'http://purl.oclc.org/ooxml/presentationml/main',
  ],
  a: ['http://schemas.openxmlformats.org/drawingml/2006/main', 'http://purl.oclc.org/ooxml/drawingml/main'],
  c: ['http://schemas.openxmlformats.org/drawingml/2006/chart', 'http://purl.oclc.org/ooxml/drawingml/chart'],
  r: [
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
    'http://purl.oclc.org/ooxml/officeDocument/relationships',
  ],
  mc: ['http://schemas.openxmlformats.org/markup-compatibility/2006'],
} as const;

export type NsKey = keyof typeof NS;

export function inNs(ns: string | undefined, key: NsKey): boolean {
  return ns !== undefined && (NS[key] as readonly string[]).includes(ns);
}

export function is(el: { ns: string | undefined; local: string }, key: NsKey, local: string): boolean {
  return el.local === local && inNs(el.ns, key);
}

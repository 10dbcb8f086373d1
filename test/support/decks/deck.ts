/** Small conveniences for engine scenario tests: run the engine, read parts of its output. */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { generate, type GenerateResult } from '../../../src/engine/index.js';

export const SAMPLE = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);

/** Runs the engine with `template` uploaded as `template.pptx` (the payload's `template` is filled in). */
export function run(
  template: Uint8Array,
  presentation: Record<string, unknown>,
  extraFiles: Record<string, Uint8Array> = {},
): GenerateResult {
  const files = new Map<string, Uint8Array>([['template.pptx', template], ...Object.entries(extraFiles)]);
  return generate({ payload: { presentation: { template: 'template.pptx', ...presentation } }, files });
}

/** Every part of a package as text (binary parts decoded too: only XML is asserted on). */
export function parts(bytes: Uint8Array): Map<string, string> {
  const decoder = new TextDecoder();
  return new Map(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, decoder.decode(data)]));
}

export function partNames(bytes: Uint8Array): string[] {
  return Object.keys(unzipSync(bytes)).sort();
}

/** The slide part names in presentation order, read from presentation.xml and its rels. */
export function slideParts(bytes: Uint8Array): string[] {
  const all = parts(bytes);
  const presentation = all.get('ppt/presentation.xml') ?? '';
  const rels = all.get('ppt/_rels/presentation.xml.rels') ?? '';
  const targets = new Map(
    [...rels.matchAll(/<Relationship [^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"/g)].map((m) => [m[1], m[2]]),
  );
  const relsOrder = [...rels.matchAll(/<Relationship [^>]*?Target="([^"]+)"[^>]*?Id="([^"]+)"/g)];
  for (const m of relsOrder) targets.set(m[2], m[1]);
  return [...presentation.matchAll(/<p:sldId [^>]*r:id="([^"]+)"/g)].map(
    (m) => `ppt/${(targets.get(m[1]) ?? '').replace(/^\/ppt\//, '')}`,
  );
}

/** Text of every a:t in an XML part, paragraph by paragraph. */
export function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>|<a:p\/>/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((t) => t[1]).join(''),
  );
}

/** The XML of the shape named `name` (first match) in a slide part. */
export function shapeXml(slideXml: string, name: string): string {
  const start = slideXml.indexOf(`name="${name}"`);
  if (start < 0) throw new Error(`no shape named ${name}`);
  const open = slideXml.lastIndexOf('<p:sp>', start);
  const close = slideXml.indexOf('</p:sp>', start);
  return slideXml.slice(open, close + 7);
}

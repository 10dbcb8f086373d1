/**
 * `{{tags}}` in a slide's charts (docs/payload.md "Tags": chart titles too): titles, axis titles and data label
 * texts live in the chart part (`c:rich`, `cx:rich` paragraphs), not in the slide. A chart part is parsed only
 * when one of its texts holds a `{`.
 */
import { replaceTags } from '../text/tags.js';
import { serializeXml } from '../xml/index.js';
import type { ChartParts } from './chart-parts.js';

const CHART_RELS = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart',
  'http://schemas.microsoft.com/office/2014/relationships/chartEx',
]);
/**
 * A text run holding a brace: a tag's braces may sit in different runs, but the first one is in some a:t
 * (under whatever prefix the producer gave DrawingML: the text is not parsed yet).
 */
const MAY_HOLD_TAG = /<(?:[\w.-]+:)?t(?:\s[^>]*)?>[^<]*\{/;

/** Replaces tags in every chart the slide relates to; returns the keys used. */
export function replaceChartTags(
  parts: ChartParts,
  relIds: readonly string[],
  lookup: (key: string) => string | undefined,
): Set<string> {
  const used = new Set<string>();
  for (const relId of relIds) {
    const target = parts.slideTarget(relId);
    if (!target || target.external || !CHART_RELS.has(target.type) || !parts.has(target.partName)) continue;
    if (!MAY_HOLD_TAG.test(Buffer.from(parts.bytes(target.partName)).toString('utf8'))) continue;
    const doc = parts.xml(target.partName);
    const report = replaceTags(doc.root, lookup);
    if (report.used.size === 0) continue;
    for (const key of report.used) used.add(key);
    parts.write(target.partName, serializeXml(doc));
  }
  return used;
}

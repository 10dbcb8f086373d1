/**
 * The chart filler (docs/payload-charts.md). The slide (fill-slide.ts) hands it the chart's graphic frame,
 * the content and settings of the shape entry, and a narrow context: the slide's own copy of the chart part and
 * its related parts (chart-parts.ts). Classic chart parts (`c:chartSpace`) and the newer chartEx part
 * (`cx:chartSpace`: waterfall, funnel, treemap, sunburst, histogram, box & whisker, region map) are filled
 * from the same content form.
 */
import { EngineError, type Warning } from '../errors.js';
import type { ChartContent, ShapeSettings } from '../payload/model.js';
import { shapeVariants, type FoundShape } from '../shapes/find-shape.js';
import { child, childElements, localName, serializeXml, type XmlElement } from '../xml/index.js';
import { keepTitleHidden, showsTitle } from './classic/auto-title.js';
import type { ChartParts } from './chart-parts.js';
import { fillChartEx } from './chart-ex/chart-ex.js';
import { applyChartExSettings } from './chart-ex/chart-ex-settings.js';
import { applyChartSettings } from './classic/chart-settings.js';
import { fillClassicChart } from './classic/classic-chart.js';
import { applyOverlays } from './classic/overlays.js';

export type { ChartParts } from './chart-parts.js';

export interface ChartFillContext {
  parts: ChartParts;
  warnings: Warning[];
}

export interface ChartPaths {
  /** `…shapes[i].settings` */
  settings: string;
  /** `…shapes[i].content` or `…shapes[i].data`: the field the content came in. */
  content: string;
}

export function fillChart(
  shape: FoundShape,
  content: ChartContent | null,
  settings: ShapeSettings | null,
  paths: ChartPaths,
  ctx: ChartFillContext,
): void {
  const partName = chartPartOf(shape, ctx.parts, paths.content);
  const doc = ctx.parts.xml(partName);
  const root = doc.root;
  const warnAt = (path: string) => (message: string) =>
    ctx.warnings.push({ path, message: `chart "${shape.name}": ${message}` });
  const matrix = paths.content.endsWith('.data');
  if (root.name === 'c:chartSpace') {
    const titled = showsTitle(root);
    if (content)
      fillClassicChart({
        parts: ctx.parts,
        partName,
        root,
        content,
        path: paths.content,
        matrix,
        numberFormat: settings?.chart?.numberFormat,
        warn: warnAt(paths.content),
      });
    if (!titled) keepTitleHidden(root);
    if (settings) applyChartSettings(root, settings, warnAt(paths.settings));
    if (content?.overlays) applyOverlays(root, content.overlays, warnAt(`${paths.content}.overlays`));
  } else if (localName(root.name) === 'chartSpace') {
    if (content)
      fillChartEx({
        parts: ctx.parts,
        partName,
        root,
        content,
        path: paths.content,
        matrix,
        warn: warnAt(paths.content),
      });
    if (settings) applyChartExSettings(root, settings, warnAt(paths.settings));
    if (content?.overlays)
      warnAt(`${paths.content}.overlays`)('overlays are not supported on this kind of chart; ignored');
  } else {
    throw new EngineError('INVALID_TEMPLATE', `the chart part's root is ${root.name}, not a chart`, partName);
  }
  ctx.parts.write(partName, serializeXml(doc));
}

/** The chart part the shape's graphic frame names (`c:chart/@r:id` or `cx:chart/@r:id`), as the slide owns it. */
function chartPartOf(shape: FoundShape, parts: ChartParts, path: string): string {
  for (const frame of shapeVariants(shape)) {
    if (frame.name !== 'p:graphicFrame') continue;
    const graphic = child(frame, 'a:graphic');
    const data = graphic && child(graphic, 'a:graphicData');
    const chart = data && childElements(data).find((el) => localName(el.name) === 'chart');
    const relId = chart && relationshipId(chart);
    const target = relId ? parts.slideTarget(relId) : null;
    if (target && !target.external && parts.has(target.partName)) return target.partName;
  }
  throw new EngineError('INVALID_TEMPLATE', `chart "${shape.name}" has no chart part in the template`, path);
}

function relationshipId(el: XmlElement): string | undefined {
  return Object.entries(el.attrs).find(([name]) => name.endsWith(':id'))?.[1];
}

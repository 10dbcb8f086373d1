/**
 * Which workbook a chart's data lives in (`c:externalData/@r:id`, or `cx:externalData` in a chartEx part;
 * docs/powerpoint-rules.md "Chart parts and their workbook"): embedded (a `package` relationship to an .xlsx the
 * deck carries), linked (an External relationship: never opened, caches only, with a warning), or missing. And
 * writing a layout plan into an embedded workbook.
 */
import { resolveTarget, type Relationship } from '../package/relationships.js';
import type { XmlElement } from '../xml/index.js';
import type { ChartParts } from './chart-parts.js';
import type { LayoutPlan } from './data-layout.js';
import { sheetName } from './formula.js';
import { EmbeddedWorkbook } from './workbook/embedded-workbook.js';
export { sheetPrefix } from './sheet-prefix.js';
import { fitTables } from './workbook/excel-tables.js';

const PACKAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/package';

export type WorkbookSource =
  | { kind: 'embedded'; partName: string }
  | { kind: 'linked'; target: string }
  /** An embedded part we do not edit (an Excel 97-2003 workbook as an OLE object). */
  | { kind: 'other'; partName: string }
  | { kind: 'missing' };

/** The workbook named by the chart part's external-data element (`c:externalData` or `cx:externalData`). */
export function workbookSource(
  parts: ChartParts,
  chartPart: string,
  externalData: XmlElement | undefined,
): WorkbookSource {
  const rel = dataRelationship(parts.relationships(chartPart), externalData);
  if (!rel) return { kind: 'missing' };
  if (rel.external) return { kind: 'linked', target: rel.target };
  const partName = resolveTarget(chartPart, rel.target);
  if (!parts.has(partName)) return { kind: 'missing' };
  return rel.type === PACKAGE_REL && /\.xls[xm]$/i.test(partName)
    ? { kind: 'embedded', partName }
    : { kind: 'other', partName };
}

const OLE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject';

/**
 * The relationship the external-data element names; without one, a linked workbook's relationship all the same
 * (PowerPoint keeps it on charts whose link it no longer names).
 */
export function dataRelationship(
  rels: readonly Relationship[],
  externalData: XmlElement | undefined,
): Relationship | undefined {
  const relId = externalData && Object.entries(externalData.attrs).find(([k]) => k.endsWith(':id'))?.[1];
  if (relId) return rels.find((r) => r.id === relId);
  return rels.find((r) => r.external && (r.type === OLE_REL || r.type === PACKAGE_REL));
}

export function openWorkbook(parts: ChartParts, source: WorkbookSource): EmbeddedWorkbook | null {
  return source.kind === 'embedded'
    ? EmbeddedWorkbook.open(parts.bytes(source.partName), parts.limits, source.partName, (key, make) =>
        parts.memo(key, make),
      )
    : null;
}

/** What an embedded part we do not edit is, for its warning: a binary workbook, an Excel 97-2003 one, or else. */
function otherWorkbookKind(parts: ChartParts, partName: string): string {
  if (/\.xlsb$/i.test(partName)) return 'a binary Excel workbook (.xlsb)';
  const bytes = parts.bytes(partName);
  // An OLE compound file (its signature D0 CF 11 E0 A1 B1 1A E1): how Excel 97-2003 workbooks are stored.
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => bytes[i] === b);
  return ole || /\.xls$/i.test(partName)
    ? 'an Excel 97-2003 workbook'
    : 'an embedded object that is not an .xlsx';
}

/** Writes the plan's cells into the workbook's data sheet and saves it into the deck. */
export function writeWorkbook(
  parts: ChartParts,
  source: WorkbookSource,
  workbook: EmbeddedWorkbook | null,
  plan: LayoutPlan | null,
  warn: (message: string) => void,
): void {
  switch (source.kind) {
    case 'missing':
      return;
    case 'linked':
      warn(
        `the chart's data lives in a linked workbook (${source.target}); the chart shows the new data, the linked workbook was not changed`,
      );
      return;
    case 'other':
      warn(
        `the chart's data is in ${otherWorkbookKind(parts, source.partName)} (${source.partName}), which this service does not edit: the chart shows the new data, the workbook was kept as it was ("Edit Data" shows the old data)`,
      );
      return;
  }
  if (!workbook || !plan) {
    warn(
      "the chart's formulas are not plain cell ranges on one sheet; the chart shows the new data, but its workbook was not updated",
    );
    return;
  }
  const sheet = workbook.sheet(sheetName(plan.sheet));
  if (!sheet) {
    warn(
      `the chart's workbook has no sheet "${sheetName(plan.sheet)}"; the chart shows the new data, but its workbook was not updated`,
    );
    return;
  }
  for (const cell of plan.clears) sheet.clear(cell);
  for (const { cell, value, format } of plan.writes.values()) sheet.set(cell, value, format);
  fitTables(sheet, plan.oldBlock, plan.block);
  sheet.finish();
  workbook.save(sheet);
  parts.write(source.partName, workbook.toBytes());
}

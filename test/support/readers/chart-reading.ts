/**
 * Reading charts back from an output deck for assertions, independently of the engine: chart caches with
 * regular expressions over the chart part's text (no shared parser), and the embedded workbook with ExcelJS
 * (an independent xlsx reader) at the cells the formulas name.
 */
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';

export interface CachedSeries {
  order: number;
  name: string;
  nameFormula: string | null;
  /** Category texts (or x values for scatter) by point index; '' for none. */
  categories: string[];
  categoryFormula: string | null;
  /** Values (y for scatter/bubble) by point; null for a gap. */
  values: (number | null)[];
  valueFormula: string | null;
  sizes: (number | null)[] | null;
  sizeFormula: string | null;
  xFormula: string | null;
}

const decode = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

function dimension(ser: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(ser);
  return match ? (match[1] as string) : null;
}

function points(body: string | null): { count: number; byIndex: Map<number, string> } {
  if (body === null) return { count: 0, byIndex: new Map() };
  const count = Number(/<c:ptCount val="(\d+)"\/>/.exec(body)?.[1] ?? 0);
  const byIndex = new Map<number, string>();
  for (const m of body.matchAll(/<c:pt idx="(\d+)"[^>]*>\s*<c:v>([^<]*)<\/c:v>/g))
    byIndex.set(Number(m[1]), decode(m[2] as string));
  return { count, byIndex };
}

function formula(body: string | null): string | null {
  const match = body === null ? null : /<c:f>([^<]*)<\/c:f>/.exec(body);
  return match ? decode(match[1] as string) : null;
}

function texts(body: string | null): string[] {
  const { count, byIndex } = points(body);
  return Array.from({ length: count }, (_, i) => byIndex.get(i) ?? '');
}

function numbers(body: string | null): (number | null)[] {
  const { count, byIndex } = points(body);
  return Array.from({ length: count }, (_, i) => (byIndex.has(i) ? Number(byIndex.get(i)) : null));
}

/** The series of a classic chart part, in `c:order` order. */
export function readChartSeries(xml: string): CachedSeries[] {
  const series = [...xml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((m) => {
    const ser = m[1] as string;
    const tx = dimension(ser, 'c:tx');
    const literal = tx && /^<c:v>([^<]*)<\/c:v>$/.exec(tx);
    const cat = dimension(ser, 'c:cat') ?? dimension(ser, 'c:xVal');
    const val = dimension(ser, 'c:val') ?? dimension(ser, 'c:yVal');
    const size = dimension(ser, 'c:bubbleSize');
    return {
      order: Number(/<c:order val="(\d+)"/.exec(ser)?.[1] ?? 0),
      name: literal ? decode(literal[1] as string) : (texts(tx)[0] ?? ''),
      nameFormula: formula(tx),
      categories: texts(cat),
      categoryFormula: formula(dimension(ser, 'c:cat')),
      xFormula: formula(dimension(ser, 'c:xVal')),
      values: numbers(val),
      valueFormula: formula(val),
      sizes: size === null ? null : numbers(size),
      sizeFormula: formula(size),
    };
  });
  return series.sort((a, b) => a.order - b.order);
}

/** Part text of a package (fflate). */
export function packageFiles(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

export function textOf(files: Record<string, Uint8Array>, item: string): string {
  const data = files[item];
  if (!data) throw new Error(`no part ${item}`);
  return new TextDecoder().decode(data);
}

/** `ppt/charts/chart3.xml` for the chart graphic frame of shape `shapeId` on a slide item. */
export function chartItemOf(files: Record<string, Uint8Array>, slideItem: string, shapeId: number): string {
  const slide = textOf(files, slideItem);
  const at = slide.search(new RegExp(`<p:cNvPr id="${shapeId}"[ />]`));
  if (at < 0) throw new Error(`no shape ${shapeId} on ${slideItem}`);
  const relId = /<(?:c|cx|cx1):chart [^>]*r:id="([^"]+)"/.exec(slide.slice(at))?.[1];
  const rels = textOf(files, slideItem.replace(/([^/]+)$/, '_rels/$1.rels'));
  const target = new RegExp(`<Relationship [^>]*Id="${relId}"[^>]*>`)
    .exec(rels)?.[0]
    .match(/Target="([^"]+)"/)?.[1];
  if (!target) throw new Error(`no chart relationship ${relId} on ${slideItem}`);
  return resolve(slideItem, target);
}

/** The embedded workbook item of a chart item, or null (linked or none). */
export function workbookItemOf(files: Record<string, Uint8Array>, chartItem: string): string | null {
  const rels = files[chartItem.replace(/([^/]+)$/, '_rels/$1.rels')];
  if (!rels) return null;
  const rel = /<Relationship [^>]*Type="[^"]*\/package"[^>]*>/.exec(new TextDecoder().decode(rels))?.[0];
  const target = rel?.match(/Target="([^"]+)"/)?.[1];
  return target && !/TargetMode="External"/.test(rel ?? '') ? resolve(chartItem, target) : null;
}

function resolve(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

export type CellValue = string | number | null;

/** Reads cells named by chart formulas (`Sheet1!$B$2:$B$6`) from an .xlsx with ExcelJS. */
export async function workbookReader(xlsx: Uint8Array): Promise<{
  cells(formula: string): CellValue[];
  workbook: ExcelJS.Workbook;
}> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(xlsx) as unknown as ArrayBuffer);
  return {
    workbook,
    cells(f: string): CellValue[] {
      const match = /^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/.exec(f);
      if (!match) throw new Error(`not a cell range: ${f}`);
      const sheetName = match[1]?.replace(/''/g, "'") ?? (match[2] as string);
      const sheet = workbook.getWorksheet(sheetName);
      if (!sheet) throw new Error(`no sheet ${sheetName}`);
      const [c1, r1, c2 = match[3], r2 = match[4]] = [match[3], match[4], match[5], match[6]];
      const col = (s: string): number => [...s].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
      const out: CellValue[] = [];
      for (let r = Number(r1); r <= Number(r2); r++)
        for (let c = col(c1 as string); c <= col(c2 as string); c++) {
          const v = sheet.getCell(r, c).value;
          // A date-formatted number comes back as a Date: its Excel serial is what the chart holds.
          if (v instanceof Date)
            out.push(Math.round(((v.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000) * 1e6) / 1e6);
          else
            out.push(
              v === null || v === undefined
                ? null
                : typeof v === 'number' || typeof v === 'string'
                  ? v
                  : String(v),
            );
        }
      return out;
    },
  };
}

/** A series of a chartEx part (`cx:series` and the `cx:data` block it names), read from the part's text. */
export interface CachedExSeries {
  layout: string;
  /** `ownerIdx` of a pareto line (which series it follows), else null. */
  ownerIdx: number | null;
  dataId: number | null;
  name: string;
  nameFormula: string | null;
  /** Each level of the text dimension (leaf first), by point index; null without one. */
  categoryLevels: string[][] | null;
  categoryFormula: string | null;
  values: (number | null)[];
  valueFormula: string | null;
  /** `cx:dataPt`, `cx:dataLabel`, `cx:dataLabelHidden` and waterfall subtotal indices. */
  pointIndices: number[];
  subtotals: number[];
}

function exLevels(dim: string | null): { count: number; byIndex: Map<number, string> }[] {
  if (dim === null) return [];
  return [...dim.matchAll(/<cx:lvl ([^>]*)>([\s\S]*?)<\/cx:lvl>|<cx:lvl ([^>]*)\/>/g)].map((m) => {
    const attrs = (m[1] ?? m[3]) as string;
    const byIndex = new Map<number, string>();
    for (const p of (m[2] ?? '').matchAll(/<cx:pt idx="(\d+)">([^<]*)<\/cx:pt>/g))
      byIndex.set(Number(p[1]), decode(p[2] as string));
    return { count: Number(/ptCount="(\d+)"/.exec(attrs)?.[1] ?? 0), byIndex };
  });
}

function exFormula(body: string | null): string | null {
  const match = body === null ? null : /<cx:f(?: [^>]*)?>([^<]*)<\/cx:f>/.exec(body);
  return match ? decode(match[1] as string) : null;
}

/** The series of a chartEx part in document order, pareto lines included (they have no data of their own). */
export function readChartExSeries(xml: string): CachedExSeries[] {
  const data = new Map(
    [...xml.matchAll(/<cx:data id="(\d+)">([\s\S]*?)<\/cx:data>/g)].map((m) => [
      Number(m[1]),
      m[2] as string,
    ]),
  );
  const region = /<cx:plotAreaRegion>([\s\S]*?)<\/cx:plotAreaRegion>/.exec(xml)?.[1] ?? '';
  return [...region.matchAll(/<cx:series ([^>]*?)(?:\/>|>([\s\S]*?)<\/cx:series>)/g)].map((m) => {
    const attrs = m[1] as string;
    const body = m[2] ?? '';
    const dataId = /<cx:dataId val="(\d+)"/.exec(body)?.[1];
    const block = dataId === undefined ? null : (data.get(Number(dataId)) ?? '');
    const str = block && /<cx:strDim type="cat">([\s\S]*?)<\/cx:strDim>/.exec(block)?.[1];
    const num = block && /<cx:numDim type="[^"]*">([\s\S]*?)<\/cx:numDim>/.exec(block)?.[1];
    const tx = /<cx:txData>([\s\S]*?)<\/cx:txData>/.exec(body)?.[1] ?? null;
    const [values] = exLevels(num ?? null);
    const owner = /ownerIdx="(\d+)"/.exec(attrs)?.[1];
    return {
      layout: /layoutId="([^"]+)"/.exec(attrs)?.[1] ?? '',
      ownerIdx: owner === undefined ? null : Number(owner),
      dataId: dataId === undefined ? null : Number(dataId),
      name: decode(/<cx:v>([^<]*)<\/cx:v>/.exec(tx ?? '')?.[1] ?? ''),
      nameFormula: exFormula(tx),
      categoryLevels: str
        ? exLevels(str).map((l) => Array.from({ length: l.count }, (_, i) => l.byIndex.get(i) ?? ''))
        : null,
      categoryFormula: exFormula(str ?? null),
      values: values
        ? Array.from({ length: values.count }, (_, i) =>
            values.byIndex.has(i) ? Number(values.byIndex.get(i)) : null,
          )
        : [],
      valueFormula: exFormula(num ?? null),
      pointIndices: [...body.matchAll(/<cx:(?:dataPt|dataLabel|dataLabelHidden) idx="(\d+)"/g)].map((p) =>
        Number(p[1]),
      ),
      subtotals: [
        ...(/<cx:subtotals>([\s\S]*?)<\/cx:subtotals>/.exec(body)?.[1] ?? '').matchAll(
          /<cx:idx val="(\d+)"/g,
        ),
      ].map((p) => Number(p[1])),
    };
  });
}

/** The ids of a chartEx part's data blocks, in document order. */
export function chartExDataIds(xml: string): number[] {
  return [...xml.matchAll(/<cx:data id="(\d+)"/g)].map((m) => Number(m[1]));
}

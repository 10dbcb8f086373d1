/**
 * The caches of a series in a classic chart part: what PowerPoint draws (docs/powerpoint-rules.md
 * "Chart caches are what PowerPoint draws"). A name (`c:tx`), categories (`c:cat`) or x values (`c:xVal`), and
 * numbers (`c:val`, `c:yVal`, `c:bubbleSize`), each a reference (`c:strRef`/`c:numRef`: a formula and its cache)
 * when the chart has a workbook to point at, else a literal (`c:strLit`/`c:numLit`). `c:ptCount` is the number of
 * points; a gap is an omitted `c:pt`, never `None` or `NaN`. Reference elements are built anew, so the c15
 * extensions that carried the old ranges (`c15:fullRef`, `c15:formulaRef`) go with them (docs/powerpoint-rules.md
 * "Changing series and point counts").
 */
import { child, element, insertInOrder, text, type XmlElement } from '../xml/index.js';

/** A point's value as written: text, a number, or a gap. */
export type PointValue = string | number | null;

/**
 * `c:v` text: a plain number with a `.` decimal point (docs/powerpoint-rules.md
 * "Chart XML order and series data").
 */
export function numberText(value: number): string {
  return String(value);
}

function point(index: number, value: string): XmlElement {
  return element('c:pt', { idx: String(index) }, [element('c:v', {}, [text(value)])]);
}

function points(values: readonly PointValue[]): XmlElement[] {
  const result: XmlElement[] = [];
  values.forEach((value, i) => {
    if (value === null || value === '') return;
    result.push(point(i, typeof value === 'number' ? numberText(value) : value));
  });
  return result;
}

function stringCache(name: 'c:strCache' | 'c:strLit', values: readonly PointValue[]): XmlElement {
  return element(name, {}, [element('c:ptCount', { val: String(values.length) }), ...points(values)]);
}

function numberCache(
  name: 'c:numCache' | 'c:numLit',
  values: readonly PointValue[],
  formatCode: string,
): XmlElement {
  return element(name, {}, [
    element('c:formatCode', {}, [text(formatCode)]),
    element('c:ptCount', { val: String(values.length) }),
    ...points(values),
  ]);
}

/** The series name: `c:tx/c:strRef` with the name's cell, or `c:tx/c:v` when there is no cell for it. */
export function writeSeriesName(
  series: XmlElement,
  order: readonly string[],
  name: string,
  formula: string | null,
): void {
  const content = formula
    ? element('c:strRef', {}, [element('c:f', {}, [text(formula)]), stringCache('c:strCache', [name])])
    : element('c:v', {}, [text(name)]);
  insertInOrder(series, element('c:tx', {}, [content]), order);
}

/**
 * Text points (categories, or x values that are not numbers) as `c:strRef`/`c:strLit`; numbers and dates as
 * `c:numRef`/`c:numLit` with `formatCode`.
 */
export function writeDimension(
  series: XmlElement,
  order: readonly string[],
  name: string,
  values: readonly PointValue[],
  formula: string | null,
  formatCode: string | null,
): void {
  let content: XmlElement;
  if (formatCode === null) {
    content = formula
      ? element('c:strRef', {}, [element('c:f', {}, [text(formula)]), stringCache('c:strCache', values)])
      : stringCache('c:strLit', values);
  } else {
    content = formula
      ? element('c:numRef', {}, [
          element('c:f', {}, [text(formula)]),
          numberCache('c:numCache', values, formatCode),
        ])
      : numberCache('c:numLit', values, formatCode);
  }
  insertInOrder(series, element(name, {}, [content]), order);
}

/** The formatCode of a dimension's numbers in the template (`General` when it has none). */
export function templateFormatCode(series: XmlElement, name: string): string | null {
  const dimension = child(series, name);
  if (!dimension) return null;
  for (const form of ['c:numRef', 'c:numLit']) {
    const holder = child(dimension, form);
    const cache = holder && (form === 'c:numRef' ? child(holder, 'c:numCache') : holder);
    const code = cache && child(cache, 'c:formatCode');
    if (code) return code.children.map((n) => (n.kind === 'text' ? n.text : '')).join('') || 'General';
    if (holder) return 'General';
  }
  return null;
}

/** The template's formula of a series dimension (`c:tx`, `c:cat`, `c:val` …), if it has one. */
export function formulaOf(series: XmlElement, name: string): string | null {
  const dimension = child(series, name);
  if (!dimension) return null;
  for (const node of dimension.children) {
    if (node.kind !== 'element') continue;
    const f = child(node, 'c:f');
    if (f) return f.children.map((n) => (n.kind === 'text' ? n.text : '')).join('');
  }
  return null;
}

/** Which reference form a dimension used (`c:strRef`, `c:numRef`, `c:multiLvlStrRef`, a literal …). */
export function dimensionForm(series: XmlElement, name: string): string | null {
  const dimension = child(series, name);
  if (!dimension) return null;
  for (const node of dimension.children) if (node.kind === 'element') return node.name;
  return null;
}

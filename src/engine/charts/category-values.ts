/**
 * Categories as the chart wants them. Text categories stay text. When the template's categories are numbers
 * (years) or dates (`c:numRef` with a date format code, or a date axis), the payload's categories are written as
 * numbers too, dates as Excel serial numbers honouring `c:date1904` (a date axis
 * needs numeric categories with a date format: docs/powerpoint-rules.md "Changing series and point counts").
 * Payload dates are ISO 8601: `2026-03-31`, optionally with a time.
 */
import type { PointValue } from './series-caches.js';

export interface CategoryValues {
  /** What is written: text, or numbers (serials for dates). */
  values: PointValue[];
  /** null: text categories (`c:strRef`); else the number format code for `c:numRef`. */
  formatCode: string | null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?$/;
const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const DAY_MS = 86_400_000;

/** Excel's serial for an ISO date: days since 1899-12-30 (1900 system) or 1904-01-01 (1904 system). */
export function dateSerial(value: string, date1904: boolean): number | null {
  const match = ISO_DATE.exec(value.trim());
  if (!match) return null;
  const [, y, m, d, hh = '0', mm = '0', ss = '0'] = match;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh), Number(mm), 0) + Number(ss) * 1000;
  const check = new Date(ms);
  // Date.UTC rolls 2026-02-31 over into March: such a date is not a date.
  if (check.getUTCMonth() !== Number(m) - 1 || check.getUTCDate() !== Number(d)) return null;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const serial = (ms - epoch) / DAY_MS;
  return serial >= 0 ? Math.round(serial * 1e8) / 1e8 : null;
}

/** Whether an Excel number format code shows a date or time (d, m, y, h, s outside quotes and brackets). */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/**
 * `template`: how the template wrote its categories: `text`, `number` (with its format code) or `date` (with its
 * format code). Categories that do not fit the template's kind are written as text, and `fellBack` says so.
 */
export function categoryValues(
  categories: readonly string[],
  template: { kind: 'text' } | { kind: 'number' | 'date'; formatCode: string },
  date1904: boolean,
): CategoryValues & { fellBack: boolean } {
  if (template.kind === 'text') return { values: [...categories], formatCode: null, fellBack: false };
  const numbers: number[] = [];
  for (const category of categories) {
    const n =
      template.kind === 'date' ? (dateSerial(category, date1904) ?? numeric(category)) : numeric(category);
    if (n === null) return { values: [...categories], formatCode: null, fellBack: true };
    numbers.push(n);
  }
  return { values: numbers, formatCode: template.formatCode, fellBack: false };
}

function numeric(value: string): number | null {
  if (!NUMERIC.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** X values from categories (a scatter series given `values`): numbers when every one is, else text. */
export function xFromCategories(categories: readonly string[]): PointValue[] {
  const numbers = categories.map(numeric);
  return numbers.every((n) => n !== null) ? numbers : [...categories];
}

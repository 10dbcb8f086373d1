/**
 * Typed values (docs/payload.md, Numbers and dates): `{"number": 1234.5, "format": "#,##0.00"}` or
 * `{"date": "2026-03-05", "format": "dddd, d. mmmm yyyy"}` wherever text goes, written with an Excel
 * number-format code (excel-format.ts) in the separators and names of `presentation.locale`. In a chart the
 * number itself (a date as its spreadsheet serial) goes into the caches, with the format code.
 */
import {
  formatDateWith,
  formatNumberWith,
  FormatCodeError,
  parseFormatCode,
  type DateParts,
} from './excel-format.js';
import { object } from './object-builder.js';
import type { ParseContext } from './parse-context.js';
import { described, isRecord, named, number, refuse, string, type Spec } from './schema-builders.js';

export interface TypedValue {
  /** As the locale writes it. */
  text: string;
  /** The number, or the date's spreadsheet serial (days since 1899-12-30, the time as a fraction). */
  value: number;
  format: string;
}

export const TYPED_VALUE_EXPECTED = 'a typed value {number, format} or {date, format}';

/** Whether an object is meant as a typed value (it has `number` or `date`), not a run, cell or chart. */
export function isTypedValue(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && ('number' in value || 'date' in value);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DATE_EXPECTED = 'a date "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM[:SS]" (no time zone)';

function dateParts(text: string, ctx: ParseContext): DateParts {
  const m = DATE.exec(text);
  const [year, month, day, hour, minute, second] = (m?.slice(1) ?? []).map((g) => Number(g ?? 0));
  const time = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0);
  const at = new Date(time);
  if (
    !m ||
    at.getUTCFullYear() !== year ||
    at.getUTCMonth() + 1 !== month ||
    at.getUTCDate() !== day ||
    (hour ?? 0) > 23 ||
    (minute ?? 0) > 59 ||
    (second ?? 0) > 59
  )
    refuse(ctx, `expected ${DATE_EXPECTED}, got ${JSON.stringify(text)}`, 'date');
  return {
    year: year as number,
    month: month as number,
    day: day as number,
    hour: hour ?? 0,
    minute: minute ?? 0,
    second: second ?? 0,
    weekday: at.getUTCDay(),
  };
}

/** Days since 1899-12-30: what a spreadsheet stores for a date (1900 and later). */
const SERIAL_EPOCH = Date.UTC(1899, 11, 30);

function applyFormat<T>(ctx: ParseContext, format: string, apply: () => T): T {
  try {
    return apply();
  } catch (error) {
    if (!(error instanceof FormatCodeError)) throw error;
    return refuse(ctx, `format ${JSON.stringify(format)}: ${error.message}`, 'format');
  }
}

export const typedValueSpec: Spec<TypedValue> = named(
  'TypedValue',
  object(
    TYPED_VALUE_EXPECTED,
    {
      number: described('The number', number()),
      date: described(DATE_EXPECTED, string({ minLength: 1 })),
      format: described(
        'An Excel number-format code ("#,##0.00", "0%", "dddd, d. mmmm yyyy"); numbers default to General',
        string({ minLength: 1, maxLength: 255 }),
      ),
    },
    (f, ctx): TypedValue => {
      const locale = ctx.localeText;
      if (f.number !== undefined) {
        const format = f.format ?? 'General';
        const sections = applyFormat(ctx, format, () => parseFormatCode(format));
        const text = applyFormat(ctx, format, () => formatNumberWith(sections, f.number as number, locale));
        return { text, value: f.number, format };
      }
      if (f.format === undefined) refuse(ctx, 'a date needs a format code (e.g. "d mmmm yyyy")', 'format');
      const format = f.format;
      const parts = dateParts(f.date as string, ctx);
      const sections = applyFormat(ctx, format, () => parseFormatCode(format));
      const text = applyFormat(ctx, format, () => formatDateWith(sections, parts, locale));
      const time = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
      return { text, value: (time - SERIAL_EPOCH) / 86_400_000, format };
    },
    { oneRequired: [['number', 'date']], exclusive: [['number', 'date']] },
  ),
  'A number or date written with an Excel number-format code in the locale of presentation.locale.',
);

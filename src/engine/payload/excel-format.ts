/**
 * Excel number-format codes (ECMA-376 Part 1, §18.8.31 numFmts) applied to a number or a date the way a
 * spreadsheet shows it, with a locale's separators and month and day names (locale-text.ts). Sections split on
 * `;` (positive; negative; zero); digit placeholders `0 # ?`, `.`, `,` (thousands, or ÷1000 at the end), `%`,
 * literal text in quotes or after `\`, `[$€-407]` currency tags, colour tags (ignored), `_x` (a space) and `*x`
 * (ignored); date and time codes `d dd ddd dddd m mm mmm mmmm mmmmm yy yyyy h hh m mm s ss AM/PM A/P`.
 * Conditions (`[>100]`), elapsed time (`[h]`), fractions and exponents are refused with a reason.
 */
import type { LocaleText } from './locale-text.js';

export type FormatToken =
  | { kind: 'literal'; text: string }
  | { kind: 'digit'; char: '0' | '#' | '?' }
  | { kind: 'point' }
  | { kind: 'comma' }
  | { kind: 'percent' }
  | { kind: 'general' }
  | { kind: 'date'; code: string };

export interface FormatSection {
  tokens: FormatToken[];
  isDate: boolean;
}

/** Thrown for a code that cannot be applied; the message says why (the payload parser adds the path). */
export class FormatCodeError extends Error {}

/** Characters Excel shows as they are without quotes (besides any non-ASCII letter, such as € or £). */
const PLAIN_LITERALS = new Set([..."$-+/():!^&'~{}<>= "]);

const DATE_CODE = /^(?:am\/pm|a\/p|y+|m+|d+|h+|s+)/i;

export function parseFormatCode(code: string): FormatSection[] {
  if (code.length === 0 || code.length > 255)
    throw new FormatCodeError('a format code has 1 to 255 characters');
  const sections: FormatSection[] = [];
  let tokens: FormatToken[] = [];
  const literal = (text: string): void => {
    const last = tokens[tokens.length - 1];
    if (last?.kind === 'literal') last.text += text;
    else tokens.push({ kind: 'literal', text });
  };
  let i = 0;
  while (i < code.length) {
    const c = code[i] as string;
    const rest = code.slice(i);
    if (c === ';') {
      sections.push(section(tokens));
      tokens = [];
      i++;
    } else if (c === '"') {
      const end = code.indexOf('"', i + 1);
      if (end < 0) throw new FormatCodeError('a quoted text has no closing "');
      literal(code.slice(i + 1, end));
      i = end + 1;
    } else if (c === '\\' || c === '_' || c === '*') {
      const next = code[i + 1];
      if (next === undefined) throw new FormatCodeError(`${c} at the end needs a character after it`);
      if (c === '\\') literal(next);
      else if (c === '_') literal(' ');
      i += 2;
    } else if (c === '[') {
      const end = code.indexOf(']', i);
      if (end < 0) throw new FormatCodeError('a [ has no closing ]');
      bracket(code.slice(i + 1, end), literal);
      i = end + 1;
    } else if (/^general/i.test(rest)) {
      tokens.push({ kind: 'general' });
      i += 7;
    } else if (c === '0' || c === '#' || c === '?') {
      tokens.push({ kind: 'digit', char: c });
      i++;
    } else if (c === '.') {
      tokens.push({ kind: 'point' });
      i++;
    } else if (c === ',') {
      tokens.push({ kind: 'comma' });
      i++;
    } else if (c === '%') {
      tokens.push({ kind: 'percent' });
      i++;
    } else if (c === '@') {
      tokens.push({ kind: 'general' });
      i++;
    } else if (c === 'E' || c === 'e') {
      if (/^e[+-]/i.test(rest)) throw new FormatCodeError('exponent formats (0.00E+00) are not supported');
      throw new FormatCodeError('era years (e) are not supported');
    } else {
      const date = DATE_CODE.exec(rest)?.[0];
      if (date !== undefined) {
        tokens.push({ kind: 'date', code: date });
        i += date.length;
      } else if (PLAIN_LITERALS.has(c) || !/[A-Za-z0-9]/.test(c)) {
        literal(c);
        i++;
      } else {
        throw new FormatCodeError(`"${c}" is not a format character; put literal text in quotes`);
      }
    }
  }
  sections.push(section(tokens));
  if (sections.length > 4) throw new FormatCodeError('a format code has at most 4 sections');
  return sections;
}

function bracket(inner: string, literal: (text: string) => void): void {
  if (inner.startsWith('$')) {
    const dash = inner.indexOf('-');
    literal(dash < 0 ? inner.slice(1) : inner.slice(1, dash));
    return;
  }
  if (/^(?:black|blue|cyan|green|magenta|red|white|yellow|color\s*\d+)$/i.test(inner)) return;
  if (/^[hms]+$/i.test(inner)) throw new FormatCodeError(`elapsed time ([${inner}]) is not supported`);
  throw new FormatCodeError(`[${inner}] is not supported (conditions and other tags are refused)`);
}

function section(tokens: FormatToken[]): FormatSection {
  const isDate = tokens.some((t) => t.kind === 'date');
  if (isDate && tokens.some((t) => t.kind === 'digit' || t.kind === 'percent'))
    throw new FormatCodeError('a section mixes date codes with digit placeholders');
  if (isDate) {
    // In a date section `.` and `,` are text (`d. mmmm`, `mmm d, yyyy`).
    return {
      isDate,
      tokens: tokens.map((t): FormatToken => {
        if (t.kind === 'point') return { kind: 'literal', text: '.' };
        return t.kind === 'comma' ? { kind: 'literal', text: ',' } : t;
      }),
    };
  }
  if (tokens.filter((t) => t.kind === 'point').length > 1)
    throw new FormatCodeError('a section has more than one decimal point');
  if (tokens.some((t) => t.kind === 'literal' && t.text.includes('/') && hasDigits(tokens)))
    throw new FormatCodeError('fraction formats (# ?/?) are not supported');
  return { isDate, tokens };
}

function hasDigits(tokens: readonly FormatToken[]): boolean {
  return tokens.some((t) => t.kind === 'digit');
}

/** Which section shows `n`, and whether the sign is still to be written (Excel: only by the first section). */
function pickSection(
  sections: readonly FormatSection[],
  n: number,
): { section: FormatSection; sign: boolean } {
  const [first, second, third] = sections as [FormatSection, FormatSection?, FormatSection?];
  if (n < 0 && second) return { section: second, sign: false };
  if (n === 0 && third) return { section: third, sign: false };
  return { section: first, sign: n < 0 };
}

export function formatNumberWith(sections: readonly FormatSection[], n: number, locale: LocaleText): string {
  const { section, sign } = pickSection(sections, n);
  if (section.isDate) throw new FormatCodeError('a date format needs a date value ({"date": …})');
  const tokens = section.tokens;
  const point = tokens.findIndex((t) => t.kind === 'point');
  const integerEnd = point < 0 ? tokens.length : point;
  const intDigits: number[] = [];
  const fracDigits: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind === 'digit') (i < integerEnd ? intDigits : fracDigits).push(i);
  });
  const lastIntDigit = intDigits[intDigits.length - 1] ?? -1;
  let grouping = false;
  let scale = 0;
  tokens.forEach((t, i) => {
    if (t.kind !== 'comma') return;
    if (i < lastIntDigit && i > (intDigits[0] ?? Infinity)) grouping = true;
    else if (i > lastIntDigit && i < integerEnd && intDigits.length > 0) scale++;
  });
  const percents = tokens.filter((t) => t.kind === 'percent').length;
  const value = (Math.abs(n) * 100 ** percents) / 1000 ** scale;
  if (intDigits.length === 0 && fracDigits.length === 0) {
    const general = tokens.some((t) => t.kind === 'general');
    return (sign ? '-' : '') + render(tokens, () => (general ? generalText(value, locale) : ''));
  }
  const [whole, fraction] = roundDecimal(value, fracDigits.length);
  const intChars = integerChars(tokens, intDigits, whole, grouping, locale);
  const fracChars = fractionChars(tokens, fracDigits, fraction);
  const out = render(tokens, (t, i) => {
    if (t.kind === 'digit') return (i < integerEnd ? intChars.get(i) : fracChars.get(i)) ?? '';
    if (t.kind === 'point') return locale.decimal;
    if (t.kind === 'general') return generalText(value, locale);
    return '';
  });
  const isZero = /^0*$/.test(whole + fraction);
  return (sign && !isZero ? '-' : '') + out;
}

function render(tokens: readonly FormatToken[], value: (t: FormatToken, i: number) => string): string {
  let out = '';
  tokens.forEach((t, i) => {
    if (t.kind === 'literal') out += t.text;
    else if (t.kind === 'percent') out += '%';
    else out += value(t, i);
  });
  return out;
}

/** Integer digits placed right to left into their placeholders; the first placeholder takes the excess. */
function integerChars(
  tokens: readonly FormatToken[],
  positions: readonly number[],
  whole: string,
  grouping: boolean,
  locale: LocaleText,
): Map<number, string> {
  const chars = new Map<number, string>();
  const placeholders = positions.map((p) => (tokens[p] as { char: string }).char);
  const digits = whole === '0' ? '' : whole;
  if (grouping) {
    const firstRequired = placeholders.findIndex((c) => c !== '#');
    const minimum = firstRequired < 0 ? 0 : placeholders.length - firstRequired;
    const padded = digits.padStart(minimum, '0');
    const grouped = padded.replace(/\B(?=(\d{3})+(?!\d))/g, locale.group);
    positions.forEach((p, k) => chars.set(p, k === 0 ? grouped : ''));
    return chars;
  }
  let d = digits.length - 1;
  for (let k = positions.length - 1; k >= 0; k--) {
    const p = positions[k] as number;
    const holder = placeholders[k];
    if (k === 0) chars.set(p, digits.slice(0, d + 1) || (holder === '0' ? '0' : holder === '?' ? ' ' : ''));
    else if (d >= 0) chars.set(p, digits[d--] as string);
    else chars.set(p, holder === '0' ? '0' : holder === '?' ? ' ' : '');
  }
  return chars;
}

/** Fraction digits left to right; trailing zeros show only for `0` (and as spaces for `?`). */
function fractionChars(
  tokens: readonly FormatToken[],
  positions: readonly number[],
  fraction: string,
): Map<number, string> {
  const chars = new Map<number, string>();
  let keep = fraction.length;
  while (keep > 0 && fraction[keep - 1] === '0') {
    const holder = (tokens[positions[keep - 1] as number] as { char: string }).char;
    if (holder === '0') break;
    keep--;
  }
  positions.forEach((p, k) => {
    const holder = (tokens[p] as { char: string }).char;
    chars.set(p, k < keep ? (fraction[k] as string) : holder === '?' ? ' ' : '');
  });
  return chars;
}

/**
 * `value` rounded half away from zero to `places` decimals, as Excel does, on its decimal digits (at most 15
 * significant, as Excel keeps them) rather than on the binary double: 1.005 with two places is 1.01.
 */
export function roundDecimal(value: number, places: number): [whole: string, fraction: string] {
  const [intPart = '0', fracPart = ''] = plainDecimal(value).split('.');
  const digits = (intPart + fracPart.slice(0, places).padEnd(places, '0')).split('').map(Number);
  if ((fracPart[places] ?? '0') >= '5') {
    let k = digits.length - 1;
    for (; k >= 0; k--) {
      const next = (digits[k] as number) + 1;
      digits[k] = next % 10;
      if (next < 10) break;
    }
    if (k < 0) digits.unshift(1);
  }
  const all = digits.join('');
  const whole = all.slice(0, all.length - places).replace(/^0+(?=\d)/, '') || '0';
  return [whole, all.slice(all.length - places)];
}

/** A non-negative number as plain decimal text with at most 15 significant digits (no exponent). */
function plainDecimal(value: number): string {
  if (value === 0) return '0';
  const precise = value.toPrecision(15);
  const e = precise.indexOf('e');
  if (e < 0) return precise.includes('.') ? precise.replace(/0+$/, '').replace(/\.$/, '') : precise;
  const digits = precise.slice(0, e).replace('.', '').replace(/0+$/, '');
  const exponent = Number(precise.slice(e + 1));
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  return digits.padEnd(exponent + 1, '0');
}

/** `General`: up to 10 decimals as a spreadsheet cell shows them, with the locale's separator. */
function generalText(value: number, locale: LocaleText): string {
  const [whole, fraction] = roundDecimal(value, 10);
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed === '' ? whole : `${whole}${locale.decimal}${trimmed}`;
}

export interface DateParts {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

export function formatDateWith(
  sections: readonly FormatSection[],
  date: DateParts,
  locale: LocaleText,
): string {
  const section = sections[0] as FormatSection;
  if (!section.isDate) throw new FormatCodeError('a number format needs a number value ({"number": …})');
  const tokens = section.tokens;
  const twelveHour = tokens.some((t) => t.kind === 'date' && /^a/i.test(t.code));
  const hasDay = tokens.some((t) => t.kind === 'date' && /^d{1,2}$/i.test(t.code));
  return render(tokens, (t, i) => {
    if (t.kind !== 'date') return '';
    const code = t.code.toLowerCase();
    const pad = (n: number): string => String(n).padStart(2, '0');
    switch (code[0]) {
      case 'y':
        return code.length <= 2 ? pad(date.year % 100) : String(date.year).padStart(4, '0');
      case 'd':
        if (code.length === 1) return String(date.day);
        if (code.length === 2) return pad(date.day);
        return code.length === 3 ? locale.weekdayShort(date.weekday) : locale.weekdayLong(date.weekday);
      case 'h': {
        const hour = twelveHour ? (date.hour % 12 === 0 ? 12 : date.hour % 12) : date.hour;
        return code.length === 1 ? String(hour) : pad(hour);
      }
      case 's':
        return code.length === 1 ? String(date.second) : pad(date.second);
      case 'a':
        if (code === 'a/p') return date.hour < 12 ? (t.code[0] as string) : (t.code[2] as string);
        return locale.dayPeriod(date.hour < 12);
      default: {
        if (code.length <= 2 && isMinute(tokens, i))
          return code.length === 1 ? String(date.minute) : pad(date.minute);
        if (code.length === 1) return String(date.month);
        if (code.length === 2) return pad(date.month);
        if (code.length === 3) return locale.monthShort(date.month, hasDay);
        const long = locale.monthLong(date.month, hasDay);
        return code.length === 4 ? long : long.slice(0, 1);
      }
    }
  });
}

/** `m`/`mm` are minutes right after an hour or right before seconds (literals between do not count). */
function isMinute(tokens: readonly FormatToken[], index: number): boolean {
  const neighbour = (step: number): string | null => {
    for (let k = index + step; k >= 0 && k < tokens.length; k += step) {
      const t = tokens[k] as FormatToken;
      if (t.kind === 'date') return t.code.toLowerCase()[0] ?? null;
    }
    return null;
  };
  return neighbour(-1) === 'h' || neighbour(1) === 's';
}

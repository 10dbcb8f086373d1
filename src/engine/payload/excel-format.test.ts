import { describe, expect, it } from 'vitest';
import { formatDateWith, formatNumberWith, parseFormatCode, type DateParts } from './excel-format.js';
import { LocaleText } from './locale-text.js';

const EN = new LocaleText('en-US');
const DE = new LocaleText('de-DE');

function number(code: string, n: number, locale = EN): string {
  return formatNumberWith(parseFormatCode(code), n, locale);
}

// Thursday, 5 March 2026, 14:07:09.
const MARCH_5: DateParts = { year: 2026, month: 3, day: 5, hour: 14, minute: 7, second: 9, weekday: 4 };

function date(code: string, locale = EN, parts = MARCH_5): string {
  return formatDateWith(parseFormatCode(code), parts, locale);
}

describe('Excel number formats', () => {
  it.each([
    ['#,##0.00', 1234567.891, '1,234,567.89'],
    ['0.00', 1.005, '1.01'],
    ['0', 2.5, '3'],
    ['0', -2.5, '-3'],
    ['0%', 0.256, '26%'],
    ['0.0%', -0.256, '-25.6%'],
    ['#,##0;(#,##0)', -1234, '(1,234)'],
    ['#,##0;(#,##0);"nil"', 0, 'nil'],
    ['$#,##0.00_);[Red]($#,##0.00)', -5, '($5.00)'],
    ['#,##0,"k"', 123456, '123k'],
    ['#,##0,,"M"', 7_500_000, '8M'],
    ['000-000', 12345, '012-345'],
    ['#.##', 3.1, '3.1'],
    ['0.0', 999.96, '1000.0'],
    ['#,##0', 0, '0'],
    ['#,##0', 1e21, '1,000,000,000,000,000,000,000'],
    ['General', 1 / 3, '0.3333333333'],
    ['"Total: "0', 42, 'Total: 42'],
    ['\\#0', 7, '#7'],
  ])('%s shows %d as %s', (code, n, shown) => {
    expect(number(code, n)).toBe(shown);
  });

  it('writes separators and currency tags in the locale', () => {
    expect(number('#,##0.00', 1234567.891, DE)).toBe('1.234.567,89');
    expect(number('#,##0.00 [$€-407]', 9999.999, DE)).toBe('10.000,00 €');
    expect(number('#,##0.00', 1234567.891, new LocaleText('fr-FR'))).toBe('1\u202f234\u202f567,89');
    expect(number('General', 2.5, DE)).toBe('2,5');
  });

  it('writes dates with the locale month and day names', () => {
    expect(date('dddd, d. mmmm yyyy', DE)).toBe('Donnerstag, 5. März 2026');
    expect(date('mmm d, yyyy')).toBe('Mar 5, 2026');
    expect(date('dd/mm/yy h:mm AM/PM')).toBe('05/03/26 2:07 PM');
    expect(date('hh:mm:ss', DE)).toBe('14:07:09');
    expect(date('yyyy-mm-dd')).toBe('2026-03-05');
    expect(date('mmmmm')).toBe('M');
    // A month with a day takes the form Russian writes dates with; alone, the nominative.
    expect(date('d mmmm yyyy', new LocaleText('ru-RU'))).toBe('5 марта 2026');
    expect(date('mmmm yyyy', new LocaleText('ru-RU'))).toBe('март 2026');
  });

  it.each([
    ['0.00E+00', 'exponent formats'],
    ['[>100]0', 'not supported'],
    ['# ?/?', 'fraction formats'],
    ['0 k', '"k" is not a format character'],
    ['"abc', 'no closing "'],
    ['[h]:mm', 'elapsed time'],
    ['0.0.0', 'more than one decimal point'],
    ['d 0', 'mixes date codes with digit placeholders'],
  ])('refuses %s (%s)', (code, reason) => {
    expect(() => parseFormatCode(code)).toThrow(reason);
  });

  it('refuses a number with a date format and a date with a number format', () => {
    expect(() => number('d mmmm', 5)).toThrow('a date format needs a date value');
    expect(() => date('#,##0')).toThrow('a number format needs a number value');
  });
});

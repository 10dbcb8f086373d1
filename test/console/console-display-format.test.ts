/** One way of writing dates, numbers and allowances across the console (src/console/browser/display-format.ts). */
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDate,
  formatDay,
  formatSlideSize,
  slideAllowance,
  UNLIMITED_SLIDES,
} from '../../src/console/browser/display-format.js';

const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

describe('console display format', () => {
  it('writes a calendar day the same whether it comes as a date or as a moment, whatever the time zone', () => {
    const expected = DAY.format(new Date(Date.UTC(2026, 11, 1)));
    expect(formatDay('2026-12-01')).toBe(expected);
    expect(formatDay('2026-12-01T00:00:00.000Z')).toBe(expected);
    expect(expected).toMatch(/2026/);
    expect(expected).not.toMatch(/T|Z|:/);
  });

  it('writes moments with date and time in one style, and keeps what it cannot read', () => {
    const written = formatDate('2026-11-27T19:20:00Z');
    expect(written).toMatch(/2026/);
    expect(written).toMatch(/\d{1,2}:\d{2}/);
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDate(null)).toBe('—');
    expect(formatDay(undefined)).toBe('—');
  });

  it('says "unlimited" for a plan without a ceiling instead of a count nobody reaches', () => {
    expect(slideAllowance(24, 100)).toEqual({ text: '24 of 100 slides used', unlimited: false });
    expect(slideAllowance(1234, UNLIMITED_SLIDES)).toEqual({
      text: `${formatCount(1234)} slides used (unlimited)`,
      unlimited: true,
    });
    expect(slideAllowance(0, UNLIMITED_SLIDES).text).not.toContain('1000000000');
  });

  it("gives a file size in bytes, KB or MB, in the units of the server's limit messages (1 MB = 1 048 576 bytes)", () => {
    const n = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
    expect(formatBytes(812)).toBe('812 bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(14_540)).toBe(`${n.format(14.2)} KB`);
    expect(formatBytes(2_516_582)).toBe(`${n.format(2.4)} MB`);
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
  });

  it('gives a slide size in centimetres and inches, not EMU', () => {
    const size = formatSlideSize(12_192_000, 6_858_000); // PowerPoint's 16:9
    const n = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
    expect(size).toBe(
      `${n.format(33.87)} × ${n.format(19.05)} cm (${n.format(13.33)} × ${n.format(7.5)} in)`,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { EMU_PER_POINT, textHeight } from './row-height.js';

/** Lines of 18 pt text in a cell `widthPt` wide (no margins), from the estimated height. */
function lines(text: string, widthPt: number, bold = false): number {
  const height = textHeight([[{ text, size: 1800, bold }]], widthPt * EMU_PER_POINT, 0, 0);
  return Math.round(height / (18 * 1.2 * EMU_PER_POINT));
}

describe('the row-height estimate', () => {
  it('one line of 18 pt is 1.2 × 18 pt, plus the margins', () => {
    expect(textHeight([[{ text: 'Total', size: 1800, bold: false }]], 1e7, 45720, 45720)).toBeCloseTo(
      18 * 1.2 * EMU_PER_POINT + 91440,
    );
  });

  it('an empty paragraph still takes a line, and each paragraph starts a new one', () => {
    const empty = textHeight([[{ text: '', size: 1200, bold: false }]], 1e7, 0, 0);
    expect(empty).toBeCloseTo(12 * 1.2 * EMU_PER_POINT);
    const three = textHeight(
      [
        [{ text: 'a', size: 1200, bold: false }],
        [{ text: '', size: 1200, bold: false }],
        [{ text: 'b', size: 1200, bold: false }],
      ],
      1e7,
      0,
      0,
    );
    expect(three).toBeCloseTo(3 * empty);
  });

  it('wraps at word boundaries: "alpha beta gamma" at 18 pt needs about 172 pt on one line', () => {
    // alpha 2.80 em + space 0.32 + beta 2.28 + space 0.32 + gamma 3.84 = 9.56 em = 172 pt at 18 pt.
    expect(lines('alpha beta gamma', 200)).toBe(1);
    expect(lines('alpha beta gamma', 120)).toBe(2);
    expect(lines('alpha beta gamma', 70)).toBe(3);
    // "gamma" alone (69 pt) no longer fits: it breaks inside.
    expect(lines('alpha beta gamma', 60)).toBe(4);
  });

  it('a word longer than the line breaks inside it', () => {
    expect(lines('x'.repeat(40), 100)).toBe(Math.ceil((40 * 0.6 * 18) / 100));
  });

  it('bold is wider, East Asian characters one em each', () => {
    const text = 'Quarterly revenue by region';
    expect(lines(text, 180, true)).toBeGreaterThanOrEqual(lines(text, 180));
    expect(lines('日本語のテキスト', 18 * 4)).toBe(2);
  });

  it('the largest font on a line sets its height', () => {
    const mixed = textHeight(
      [
        [
          { text: 'small ', size: 1000, bold: false },
          { text: 'LARGE', size: 3000, bold: false },
        ],
      ],
      1e7,
      0,
      0,
    );
    expect(mixed).toBeCloseTo(30 * 1.2 * EMU_PER_POINT);
  });
});

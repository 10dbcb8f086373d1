/**
 * East Asian wide and fullwidth characters (the main blocks of Unicode's East_Asian_Width W and F: Hangul Jamo,
 * CJK, Hiragana, Katakana, Hangul syllables, compatibility ideographs and forms, fullwidth forms, and the
 * supplementary ideographic planes): drawn about one em wide, where Latin letters take about half.
 */
export function isWideCodePoint(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    code >= 0x20000
  );
}

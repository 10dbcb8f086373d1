/**
 * The Latin font families a deck asks for: its themes' major and minor fonts and every `a:latin typeface` of
 * its slides, layouts and masters (DrawingML CT_TextFont). Theme references (`+mj-lt`, `+mn-lt`) are left out:
 * they name the theme's fonts, which are listed themselves. The renderer compares the list with the fonts the
 * machine has, to say which ones it drew with a substitute.
 */
import { DEFAULT_LIMITS, type PackageLimits } from '../package/limits.js';
import { readZip } from '../package/zip.js';

const FONT_PARTS =
  /^ppt\/(theme\/theme|slideMasters\/slideMaster|slideLayouts\/slideLayout|slides\/slide)\d+\.xml$/;
// Any namespace prefix (or none); the attribute may come anywhere in the element.
const LATIN_TYPEFACE = /<(?:[\w.-]+:)?latin\b[^>]*?\btypeface\s*=\s*(["'])(.*?)\1/g;

/** Families in the order first met, each once (case kept as the deck writes it). */
export function requestedFonts(deckBytes: Uint8Array, limits: Partial<PackageLimits> = {}): string[] {
  const zip = readZip(deckBytes, { ...DEFAULT_LIMITS, ...limits });
  const seen = new Map<string, string>();
  for (const name of zip.entries.keys()) {
    if (!FONT_PARTS.test(name)) continue;
    const xml = new TextDecoder().decode(zip.inflate(name));
    for (const match of xml.matchAll(LATIN_TYPEFACE)) {
      const family = decodeEntities(match[2] ?? '').trim();
      if (family === '' || family.startsWith('+')) continue;
      if (!seen.has(family.toLowerCase())) seen.set(family.toLowerCase(), family);
    }
  }
  return [...seen.values()];
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, (whole, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (entity in named) return named[entity] as string;
    const code =
      entity[1]?.toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

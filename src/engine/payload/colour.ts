/**
 * Colours, everywhere in the payload (docs/payload.md): `#RRGGBB`, `RRGGBB`, `RGB(r,g,b)`, `r,g,b` or a CSS
 * colour name, normalised to the upper-case `RRGGBB` that `a:srgbClr/@val` takes. A name is never written
 * into the XML as-is: `a:srgbClr val="White"` makes PowerPoint repair the file (ST_HexColorRGB, ECMA-376 Part
 * 1: six hex digits only).
 */
import { CSS_COLOUR_NAMES } from './css-colour-names.js';
import { custom, fail, type Spec } from './schema-builders.js';

const HEX = /^#?([0-9a-fA-F]{6})$/;
const RGB_FUNCTION = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;
const RGB_TRIPLE = /^(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})$/;

const EXPECTED = 'a colour (#RRGGBB, RRGGBB, RGB(r,g,b), r,g,b or a CSS colour name)';

/** '00'…'FF', so that a component becomes hex by lookup (colours are parsed for every run of a large deck). */
const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, n) =>
  n.toString(16).padStart(2, '0').toUpperCase(),
);

function hexByte(component: string): string | null {
  return HEX_BYTES[Number(component)] ?? null;
}

/** `RRGGBB`, or null when `input` is none of the accepted forms. */
export function normaliseColour(input: string): string | null {
  const s = input.trim();
  const hex = HEX.exec(s);
  if (hex) return (hex[1] as string).toUpperCase();
  const rgb = RGB_FUNCTION.exec(s) ?? RGB_TRIPLE.exec(s);
  if (rgb) {
    const r = hexByte(rgb[1] as string);
    const g = hexByte(rgb[2] as string);
    const b = hexByte(rgb[3] as string);
    return r !== null && g !== null && b !== null ? r + g + b : null;
  }
  return CSS_COLOUR_NAMES.get(s.toLowerCase()) ?? null;
}

export const colourSpec: Spec<string> = custom(
  EXPECTED,
  {
    type: 'string',
    description: EXPECTED,
    anyOf: [
      { pattern: '^\\s*#?[0-9a-fA-F]{6}\\s*$' },
      { pattern: '^\\s*[rR][gG][bB]\\(\\s*\\d{1,3}\\s*,\\s*\\d{1,3}\\s*,\\s*\\d{1,3}\\s*\\)\\s*$' },
      { pattern: '^\\s*\\d{1,3}\\s*,\\s*\\d{1,3}\\s*,\\s*\\d{1,3}\\s*$' },
      { pattern: '^\\s*[a-zA-Z]+\\s*$' },
    ],
    examples: ['#1F4E79', '1F4E79', 'RGB(31,78,121)', '31,78,121', 'navy'],
  },
  (value, ctx) => {
    const colour = typeof value === 'string' ? normaliseColour(value) : null;
    if (colour === null) fail(ctx, EXPECTED, value);
    return colour;
  },
);

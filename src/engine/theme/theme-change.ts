/**
 * A payload's brand applied to a theme part (ECMA-376 Part 1 §20.1.6.9 `a:theme`): the colour scheme's slots
 * (§20.1.4.1.10 `a:clrScheme`) and the font scheme's heading and body fonts (§20.1.4.1.18 `a:fontScheme`).
 * Everything that refers to the theme — `a:schemeClr`, `+mj-lt` / `+mn-lt`, table styles, charts and SmartArt
 * that use theme colours — follows, because the theme itself changes, never a shape
 * (docs/powerpoint-rules.md "Theme colours and fonts").
 */
import type { ThemeChange, ThemeColourSlot, ThemeFonts } from '../payload/model.js';
import { child, element, insertInOrder, type XmlElement } from '../xml/index.js';

/** CT_ColorScheme: the twelve slots in sequence, then extLst. */
const COLOUR_SCHEME_ORDER = [
  'a:dk1',
  'a:lt1',
  'a:dk2',
  'a:lt2',
  'a:accent1',
  'a:accent2',
  'a:accent3',
  'a:accent4',
  'a:accent5',
  'a:accent6',
  'a:hlink',
  'a:folHlink',
  'a:extLst',
];
/** CT_FontCollection: latin, ea, cs, then the per-script fonts and extLst. */
const FONT_COLLECTION_ORDER = ['a:latin', 'a:ea', 'a:cs', 'a:font', 'a:extLst'];
const SCRIPTS = ['latin', 'ea', 'cs'] as const;

/** What a typeface element says of its font beyond the name, when the deck embeds that font. */
export interface TypefaceDetails {
  /** Twenty hex digits (CT_TextFont `panose`), absent when the font's PANOSE is all zero. */
  panose?: string;
  pitchFamily: string;
  charset: string;
}

/**
 * Changes `theme` (the root of a theme part, already a copy) as `change` asks. `details` gives an embedded
 * family's own spelling and attributes, by name; for another family the old font's `panose`, `pitchFamily` and
 * `charset` go, as they described the font that is replaced.
 */
export function changeTheme(
  theme: XmlElement,
  change: ThemeChange,
  details: (family: string) => { family: string; attributes: TypefaceDetails } | null,
): void {
  const elements = child(theme, 'a:themeElements');
  if (!elements) return;
  const colours = Object.entries(change.colors) as [ThemeColourSlot, string][];
  const scheme = child(elements, 'a:clrScheme');
  if (scheme && colours.length > 0) for (const [slot, rgb] of colours) setSlot(scheme, slot, rgb);
  const fontScheme = child(elements, 'a:fontScheme');
  if (!fontScheme) return;
  for (const [which, fonts] of [
    ['a:majorFont', change.fonts.major],
    ['a:minorFont', change.fonts.minor],
  ] as const) {
    const collection = fonts && child(fontScheme, which);
    if (collection) setFonts(collection, fonts, details);
  }
}

function setSlot(scheme: XmlElement, slot: ThemeColourSlot, rgb: string): void {
  const colour = element('a:srgbClr', { val: rgb });
  const existing = child(scheme, `a:${slot}`);
  // The slot holds one colour choice (EG_ColorChoice): a system colour, a preset, … all give way to the RGB.
  if (existing) existing.children = [colour];
  else insertInOrder(scheme, element(`a:${slot}`, {}, [colour]), COLOUR_SCHEME_ORDER);
}

function setFonts(
  collection: XmlElement,
  fonts: ThemeFonts,
  details: (family: string) => { family: string; attributes: TypefaceDetails } | null,
): void {
  for (const script of SCRIPTS) {
    const family = fonts[script];
    if (family === undefined) continue;
    const known = details(family);
    const attrs: Record<string, string> = { typeface: known?.family ?? family };
    if (known) Object.assign(attrs, known.attributes);
    const existing = child(collection, `a:${script}`);
    if (existing) existing.attrs = attrs;
    else insertInOrder(collection, element(`a:${script}`, attrs), FONT_COLLECTION_ORDER);
  }
}

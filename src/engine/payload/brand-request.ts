/**
 * `presentation.theme` (also on a `template_list` entry) and `presentation.fonts` (docs/payload.md "Brand"): the
 * theme's colour slots and fonts, and the font files the deck embeds. A slot the theme does not have is refused,
 * not ignored as an unknown key would be: a misspelt `acent1` would otherwise leave the brand colour out without
 * an error.
 */
import type { FontRequest, ThemeChange, ThemeColourSlot, ThemeFonts } from './model.js';
import { colourSpec } from './colour.js';
import { object, required } from './object-builder.js';
import {
  arrayOf,
  byJsonType,
  custom,
  described,
  enumOf,
  fail,
  isRecord,
  named,
  refuse,
  SchemaDefs,
  type Spec,
} from './schema-builders.js';
import { Abandoned, INVALID } from './parse-context.js';
import { didYouMean } from '../names/closest-name.js';

export const THEME_COLOUR_SLOTS: readonly ThemeColourSlot[] = [
  'dk1',
  'lt1',
  'dk2',
  'lt2',
  'accent1',
  'accent2',
  'accent3',
  'accent4',
  'accent5',
  'accent6',
  'hlink',
  'folHlink',
];

/** The most font files one deck embeds: four faces of four families. */
export const MAX_EMBEDDED_FONTS = 16;

const SLOTS_EXPECTED = `an object whose keys are theme colour slots (${THEME_COLOUR_SLOTS.join(', ')})`;
const SLOT_BY_LOWER = new Map(THEME_COLOUR_SLOTS.map((slot) => [slot.toLowerCase(), slot]));

/** `{"accent1": "#FF6600", …}`: slot names in any case, each a colour in the payload's spellings. */
const themeColoursSpec: Spec<Partial<Record<ThemeColourSlot, string>>> = custom(
  SLOTS_EXPECTED,
  {
    type: 'object',
    description: SLOTS_EXPECTED,
    properties: Object.fromEntries(
      THEME_COLOUR_SLOTS.map((slot) => [slot, colourSpec.toJsonSchema(new SchemaDefs())]),
    ),
    // Slot names in any case, as the parser takes them; no other key.
    propertyNames: enumOf(Object.fromEntries(THEME_COLOUR_SLOTS.map((slot) => [slot, slot]))).toJsonSchema(
      new SchemaDefs(),
    ),
  },
  (value, ctx) => {
    if (!isRecord(value)) fail(ctx, SLOTS_EXPECTED, value);
    const errorsBefore = ctx.errorCount;
    const colours: Partial<Record<ThemeColourSlot, string>> = {};
    for (const key of Object.keys(value)) {
      const slot = SLOT_BY_LOWER.get(key.toLowerCase());
      const colour = ctx.attempt(key, () => {
        if (slot === undefined)
          refuse(
            ctx,
            `a theme has no colour slot "${key}"${didYouMean(key, THEME_COLOUR_SLOTS)}; its slots are ${THEME_COLOUR_SLOTS.join(', ')}`,
          );
        return value[key] === null ? null : colourSpec.parse(value[key], ctx);
      });
      if (colour !== INVALID && colour !== null && slot !== undefined) colours[slot] = colour;
    }
    if (ctx.errorCount > errorsBefore) throw new Abandoned();
    return colours;
  },
);

const FONT_NAME_EXPECTED = 'a font family name';
/** A family name as a theme writes it: not a theme reference (`+mj-lt`), no control characters. */
const familySpec = custom<string>(
  FONT_NAME_EXPECTED,
  { type: 'string', minLength: 1, maxLength: 128, description: FONT_NAME_EXPECTED },
  (value, ctx) => {
    const name = typeof value === 'string' ? value.trim() : '';
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (name === '' || name.length > 128 || name.startsWith('+') || /[\u0000-\u001f\u007f]/.test(name))
      fail(ctx, FONT_NAME_EXPECTED, value);
    return name;
  },
);

const scriptFontsSpec: Spec<ThemeFonts> = object(
  'an object {latin, ea, cs} of font family names',
  {
    latin: described('Latin text', familySpec),
    ea: described('East Asian text', familySpec),
    cs: described('Complex scripts (Arabic, Hebrew, Thai, …)', familySpec),
  },
  (f) => ({
    ...(f.latin !== undefined ? { latin: f.latin } : {}),
    ...(f.ea !== undefined ? { ea: f.ea } : {}),
    ...(f.cs !== undefined ? { cs: f.cs } : {}),
  }),
  { oneRequired: [['latin', 'ea', 'cs']] },
);

/** `"Carlito"` (the Latin font) or `{latin, ea, cs}`. */
const themeFontSpec: Spec<ThemeFonts> = byJsonType(
  'a font family name (for Latin text) or an object {latin, ea, cs}',
  {
    string: { ...familySpec, parse: (value, ctx) => ({ latin: familySpec.parse(value, ctx) }) },
    object: scriptFontsSpec,
  },
);

export const themeSpec: Spec<ThemeChange> = named(
  'Theme',
  object(
    'a theme object {colors, fonts}',
    {
      colors: described("The theme's colour slots to change", themeColoursSpec),
      fonts: described(
        "The theme's heading (major) and body (minor) fonts",
        object(
          'an object {major, minor}',
          {
            major: described('Headings', themeFontSpec),
            minor: described('Body text', themeFontSpec),
          },
          (f) => ({
            ...(f.major !== undefined ? { major: f.major } : {}),
            ...(f.minor !== undefined ? { minor: f.minor } : {}),
          }),
          { oneRequired: [['major', 'minor']] },
        ),
      ),
    },
    (f, ctx): ThemeChange => ({ path: ctx.path(), colors: f.colors ?? {}, fonts: f.fonts ?? {} }),
    { oneRequired: [['colors', 'fonts']] },
  ),
);

const FILE_EXPECTED = 'the name of an uploaded .ttf or .otf file';
const fileNameSpec = custom<string>(
  FILE_EXPECTED,
  { type: 'string', minLength: 1, description: FILE_EXPECTED },
  (value, ctx) => {
    if (typeof value !== 'string' || value.trim() === '') fail(ctx, FILE_EXPECTED, value);
    if (/^[a-z][a-z0-9+.-]*:/i.test(value))
      refuse(
        ctx,
        `expected ${FILE_EXPECTED}, got ${JSON.stringify(value)}: fonts are taken from uploaded files only`,
      );
    return value;
  },
);

const fontEntrySpec: Spec<FontRequest> = named(
  'EmbeddedFont',
  byJsonType(`${FILE_EXPECTED}, or an object {file}`, {
    string: {
      ...fileNameSpec,
      parse: (value, ctx) => ({ path: ctx.path(), file: fileNameSpec.parse(value, ctx) }),
    },
    object: object(
      'an object {file}',
      { file: required(described(FILE_EXPECTED, fileNameSpec)) },
      (f, ctx) => ({ path: ctx.path('file'), file: f.file }),
    ),
  }),
);

export const fontsSpec: Spec<FontRequest[]> = arrayOf(fontEntrySpec, {
  maxItems: MAX_EMBEDDED_FONTS,
  expected: 'an array of font files [{"file": "Brand-Regular.ttf"}]',
  tooMany: (count) => `expected at most ${MAX_EMBEDDED_FONTS} font files, got ${count}`,
});

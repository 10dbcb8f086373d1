/**
 * `text_properties` (docs/payload.md "Text") converted to DrawingML units: sizes in 1/100 pt, indents in
 * EMU, line spacing in 1/1000 % or 1/100 pt, underline names to ST_TextUnderlineType, alignment to
 * ST_TextAlignType. The same keys are valid in a table cell's `cell_properties`, so the fields are exported
 * as a record both objects spread.
 */
import type { Hyperlink, ParagraphProps, RunProps, UnderlineStyle } from './model.js';
import { colourSpec } from './colour.js';
import { object, required } from './object-builder.js';
import {
  boolean,
  byJsonType,
  custom,
  described,
  enumOf,
  fail,
  named,
  number,
  string,
  transform,
  type Spec,
} from './schema-builders.js';
import { type ParseContext } from './parse-context.js';

const UNDERLINE: Record<string, UnderlineStyle> = {
  single: 'sng',
  double: 'dbl',
  heavy: 'heavy',
  dotted: 'dotted',
  heavydotted: 'dottedHeavy',
  dashed: 'dash',
  heavydashed: 'dashHeavy',
  heavylongdashed: 'dashLongHeavy',
  dotdash: 'dotDash',
  heavydotdash: 'dotDashHeavy',
  heavydotdotdash: 'dotDotDashHeavy',
  wavy: 'wavy',
  heavywavy: 'wavyHeavy',
  doublewavy: 'wavyDbl',
};

const ALIGN: Record<string, NonNullable<ParagraphProps['align']>> = {
  left: 'l',
  center: 'ctr',
  right: 'r',
  justified: 'just',
  dist: 'dist',
};

/** `a:rPr/@baseline` in 1/1000 %: PowerPoint's own superscript and subscript offsets. */
const BASELINE: Record<string, number> = { superscript: 30_000, subscript: -25_000 };

const LINE_SPACING_EXPECTED =
  'a multiple of single spacing from 1.00 to 9.99, or a whole number of points from 10 to 1584';

/**
 * 1.00–9.99: a multiple of single spacing (`a:spcPct`, 1.5 → 150 000); whole numbers 10–1584: points
 * (`a:spcPts`, 1/100 pt; 158 400 is ST_TextSpacingPoint's maximum).
 */
const lineSpacingSpec = custom<NonNullable<ParagraphProps['lineSpacing']>>(
  LINE_SPACING_EXPECTED,
  {
    description: LINE_SPACING_EXPECTED,
    anyOf: [
      { type: 'number', minimum: 1, maximum: 9.99 },
      { type: 'integer', minimum: 10, maximum: 1584 },
    ],
  },
  (value, ctx) => {
    if (typeof value === 'number' && value >= 1 && value <= 9.99) {
      return { unit: 'percent', value: Math.round(value * 100_000) };
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= 10 && value <= 1584) {
      return { unit: 'points', value: value * 100 };
    }
    return fail(ctx, LINE_SPACING_EXPECTED, value);
  },
);

const BULLET_CODE_EXPECTED = 'a character code from 1 to 65535 (not a surrogate)';
const bulletCharSpec = custom<string>(
  BULLET_CODE_EXPECTED,
  { type: 'integer', minimum: 1, maximum: 65535, description: 'UTF-16 code of the bullet character' },
  (value, ctx) => {
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < 1 ||
      value > 0xffff ||
      (value >= 0xd800 && value <= 0xdfff)
    ) {
      fail(ctx, BULLET_CODE_EXPECTED, value);
    }
    return String.fromCharCode(value);
  },
);

/** ST_TextBulletSizePercent allows 25 %–400 %; the hosted API takes 0–5000, so values beyond are clamped. */
function bulletSize(percent: number, ctx: ParseContext): number {
  const clamped = Math.min(400, Math.max(25, percent));
  if (clamped !== percent) {
    ctx.warn(`bullet_size ${percent} is outside 25–400 %, ${clamped} % is used`);
  }
  return Math.round(clamped * 1000);
}

/**
 * Links a reader may follow from the deck: web pages and e-mail only. `javascript:`, `file:`, `data:`,
 * `vbscript:` and the rest run code or reach into the reader's machine when clicked in a viewer that honours
 * them (docs/security.md). Slide-to-slide links are the engine's own, never the payload's.
 */
const SAFE_LINK = /^(?:https?:\/\/[^\s/?#]+[^\s]*|mailto:[^\s]+)$/i;
const URL_EXPECTED = 'an http(s) or mailto URL (https://…, mailto:…)';
const urlSpec = custom<string>(URL_EXPECTED, { type: 'string', pattern: SAFE_LINK.source }, (value, ctx) => {
  if (typeof value !== 'string' || !SAFE_LINK.test(value.trim())) fail(ctx, URL_EXPECTED, value);
  return value.trim();
});

/** `{"slide": N}`: a jump to output slide N; whether it exists is known once the slides are (generate.ts). */
const slideLinkSpec: Spec<Hyperlink> = object(
  'a slide link {slide: N}',
  {
    slide: required(
      described('The output slide to jump to, counted from 0', number({ min: 0, integer: true })),
    ),
  },
  (f, ctx) => {
    ctx.slideLinks.push({ path: ctx.path('slide'), slide: f.slide });
    return { slide: f.slide };
  },
);

const hyperlinkSpec: Spec<Hyperlink> = byJsonType(`${URL_EXPECTED} or a slide link {slide: N}`, {
  string: urlSpec,
  object: slideLinkSpec,
});

const fontSizeSpec = number({ min: 1, max: 4000 });

/** The keys of `text_properties`, shared with `cell_properties`. */
export const textPropertyFields = {
  font_type: string({ minLength: 1 }),
  font_size: transform(fontSizeSpec, (pt) => Math.round(pt * 100)),
  font_bold: boolean(),
  font_italic: boolean(),
  font_underline: enumOf(UNDERLINE),
  font_color: colourSpec,
  font_bg_color: colourSpec,
  font_strike: boolean(),
  baseline: enumOf(BASELINE),
  hyperlink: hyperlinkSpec,
  text_align: enumOf(ALIGN),
  // ±142.24 cm is ST_TextIndent's ±51 206 400 EMU.
  text_indent: transform(number({ min: -142.24, max: 142.24 }), (cm) => Math.round(cm * 360_000)),
  text_line_spacing: lineSpacingSpec,
  bullet: boolean(),
  bullet_character_code: bulletCharSpec,
  bullet_indent_level: number({ min: 0, max: 8, integer: true }),
  bullet_size: transform(number({ min: 0, max: 5000 }), bulletSize),
  new_line: boolean(),
};

type TextPropertyValues = {
  [K in keyof typeof textPropertyFields]?: ReturnType<(typeof textPropertyFields)[K]['parse']>;
};

/**
 * A run's text with its properties sorted into run and paragraph ones. `text` is filled in by the run that owns
 * the properties (one object per run: large decks have hundreds of thousands of runs).
 */
export interface SplitTextProperties {
  text: string;
  run: RunProps;
  /** null when no paragraph key was given. */
  paragraph: ParagraphProps | null;
  newLine: boolean;
}

function hasParagraphKeys(f: TextPropertyValues): boolean {
  return (
    f.text_align !== undefined ||
    f.text_indent !== undefined ||
    f.text_line_spacing !== undefined ||
    f.bullet !== undefined ||
    f.bullet_character_code !== undefined ||
    f.bullet_indent_level !== undefined ||
    f.bullet_size !== undefined
  );
}

/** Sorts parsed keys into run and paragraph properties; absent keys stay absent (not `undefined`-valued). */
export function splitTextProperties(f: TextPropertyValues): SplitTextProperties {
  const run: RunProps = {};
  const split: SplitTextProperties = { text: '', run, paragraph: null, newLine: f.new_line === true };
  if (f.font_type !== undefined) run.font = f.font_type;
  if (f.font_size !== undefined) run.size = f.font_size;
  if (f.font_bold !== undefined) run.bold = f.font_bold;
  if (f.font_italic !== undefined) run.italic = f.font_italic;
  if (f.font_underline !== undefined) run.underline = f.font_underline;
  if (f.font_color !== undefined) run.color = f.font_color;
  if (f.font_bg_color !== undefined) run.highlight = f.font_bg_color;
  if (f.font_strike !== undefined) run.strike = f.font_strike;
  if (f.baseline !== undefined) run.baseline = f.baseline;
  if (f.hyperlink !== undefined) run.hyperlink = f.hyperlink;
  if (!hasParagraphKeys(f)) return split;
  const paragraph: ParagraphProps = {};
  split.paragraph = paragraph;
  if (f.text_align !== undefined) paragraph.align = f.text_align;
  if (f.text_indent !== undefined) paragraph.indent = f.text_indent;
  if (f.text_line_spacing !== undefined) paragraph.lineSpacing = f.text_line_spacing;
  if (f.bullet !== undefined) paragraph.bullet = f.bullet;
  if (f.bullet_character_code !== undefined) paragraph.bulletChar = f.bullet_character_code;
  if (f.bullet_indent_level !== undefined) paragraph.level = f.bullet_indent_level;
  if (f.bullet_size !== undefined) paragraph.bulletSize = f.bullet_size;
  return split;
}

export function noTextProperties(): SplitTextProperties {
  return { text: '', run: {}, paragraph: null, newLine: false };
}

export const textPropertiesSpec = named(
  'TextProperties',
  object('a text_properties object', textPropertyFields, (f) => splitTextProperties(f)),
  'Run and paragraph formatting (docs/payload.md, Text).',
);

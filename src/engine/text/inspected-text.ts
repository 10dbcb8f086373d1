/**
 * What `inspect` says about a text body's content, in the payload's own words (docs/payload.md "Text"): its
 * paragraphs, each a list of runs with the `text_properties` the run's `a:rPr` sets explicitly, as far as those
 * keys can say it (a theme colour, kerning or spacing has no key and is left out). Adjacent runs with the same
 * properties are one run; a soft line break (`a:br`) is `\v`, as a payload writes it; a field (`a:fld`) is its
 * current text.
 */
import { child, childElements, textContent, type XmlElement } from '../xml/index.js';

export interface InspectedTextProperties {
  font_type?: string;
  /** Points. */
  font_size?: number;
  font_bold?: boolean;
  font_italic?: boolean;
  font_strike?: boolean;
  font_underline?: string;
  /** `#RRGGBB`, for an sRGB colour only. */
  font_color?: string;
  font_bg_color?: string;
  baseline?: 'superscript' | 'subscript';
  hyperlink?: string;
}

export interface InspectedRun {
  text: string;
  text_properties: InspectedTextProperties;
}

export interface InspectedParagraph {
  runs: InspectedRun[];
}

/** ST_TextUnderlineType back to the payload's names (payload/text-properties.ts maps the other way). */
const UNDERLINE_NAMES: Record<string, string> = {
  sng: 'single',
  dbl: 'double',
  heavy: 'heavy',
  dotted: 'dotted',
  dottedHeavy: 'heavydotted',
  dash: 'dashed',
  dashHeavy: 'heavydashed',
  dashLongHeavy: 'heavylongdashed',
  dotDash: 'dotdash',
  dotDashHeavy: 'heavydotdash',
  dotDotDashHeavy: 'heavydotdotdash',
  wavy: 'wavy',
  wavyHeavy: 'heavywavy',
  wavyDbl: 'doublewavy',
};

/** `link(rId)`: the URL an `a:hlinkClick` relationship points at, or null when it is not a web or mail link. */
export function inspectParagraphs(
  txBody: XmlElement,
  link: (relId: string) => string | null,
): InspectedParagraph[] {
  return childElements(txBody, 'a:p').map((p) => {
    const runs: InspectedRun[] = [];
    for (const node of childElements(p)) {
      if (node.name !== 'a:r' && node.name !== 'a:fld' && node.name !== 'a:br') continue;
      const text = node.name === 'a:br' ? '\v' : textContent(child(node, 'a:t') ?? node);
      const props = runProperties(child(node, 'a:rPr'), link);
      const last = runs[runs.length - 1];
      // A line break takes the properties of the run before it: a payload cannot format a break on its own.
      if (last && (node.name === 'a:br' || sameProperties(last.text_properties, props))) last.text += text;
      else runs.push({ text, text_properties: props });
    }
    return { runs };
  });
}

function runProperties(
  rPr: XmlElement | undefined,
  link: (relId: string) => string | null,
): InspectedTextProperties {
  const props: InspectedTextProperties = {};
  if (!rPr) return props;
  const { attrs } = rPr;
  const typeface = child(rPr, 'a:latin')?.attrs.typeface;
  // "+mj-lt" and "+mn-lt" name the theme's fonts, which no payload key can name.
  if (typeface && !typeface.startsWith('+')) props.font_type = typeface;
  if (attrs.sz !== undefined && Number.isFinite(Number(attrs.sz))) props.font_size = Number(attrs.sz) / 100;
  if (attrs.b !== undefined) props.font_bold = isOn(attrs.b);
  if (attrs.i !== undefined) props.font_italic = isOn(attrs.i);
  if (attrs.strike !== undefined) props.font_strike = attrs.strike !== 'noStrike';
  const underline = attrs.u && UNDERLINE_NAMES[attrs.u];
  if (underline) props.font_underline = underline;
  const colour = srgb(child(rPr, 'a:solidFill'));
  if (colour) props.font_color = colour;
  const highlight = srgb(child(rPr, 'a:highlight'));
  if (highlight) props.font_bg_color = highlight;
  const baseline = Number(attrs.baseline ?? 0);
  if (baseline > 0) props.baseline = 'superscript';
  else if (baseline < 0) props.baseline = 'subscript';
  const relId = child(rPr, 'a:hlinkClick')?.attrs['r:id'];
  const url = relId ? link(relId) : null;
  if (url) props.hyperlink = url;
  return props;
}

function srgb(fill: XmlElement | undefined): string | undefined {
  const val = fill && child(fill, 'a:srgbClr')?.attrs.val;
  return val && /^[0-9A-Fa-f]{6}$/.test(val) ? `#${val.toUpperCase()}` : undefined;
}

function isOn(value: string): boolean {
  return value === '1' || value === 'true';
}

function sameProperties(a: InspectedTextProperties, b: InspectedTextProperties): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof InspectedTextProperties>;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

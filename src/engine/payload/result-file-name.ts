/**
 * `resultFileName` (docs/payload.md "Presentation"): written without `.pptx` (a trailing `.pptx` is not doubled) and
 * made safe as a file name: no path separators, no control characters (C0, DEL, C1) and no bidirectional
 * overrides (which can disguise an extension), no characters Windows refuses in names, no leading dots (hidden
 * files, `..`) and no trailing dots or spaces (Windows drops them).
 */
// Matching control characters is the point of this pattern.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SEPARATORS_AND_RESERVED = /[/\\<>:"|?*]/g;
/** Half a surrogate pair is no character at all: no file system, header or UTF-8 encoder can take it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Leaves room for `.pptx` within the 255 bytes (UTF-8) most file systems allow in a name. */
const MAX_UTF8_BYTES = 250;

function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

function truncateUtf8(name: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of name) {
    bytes += utf8Length(ch.codePointAt(0) as number);
    if (bytes > maxBytes) return name.slice(0, end).trimEnd();
    end += ch.length;
  }
  return name;
}

/** The sanitised name without extension, or null when nothing usable is left. */
export function sanitiseResultFileName(raw: string): string | null {
  let name = raw
    .replace(CONTROL, '')
    .replace(LONE_SURROGATE, '')
    .replace(SEPARATORS_AND_RESERVED, '_')
    .trim();
  name = name.replace(/\.pptx$/i, '');
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  name = truncateUtf8(name, MAX_UTF8_BYTES);
  return name === '' ? null : name;
}

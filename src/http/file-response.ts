/**
 * Headers of a file response (sync generation, render and the signed download): the file's content type, an
 * attachment Content-Disposition carrying resultFileName (RFC 6266 / RFC 8187 `filename*` when the name is not
 * plain ASCII), and the generation warnings in header-safe form.
 */
import { UNMATCHED_NAME_CODES, type Warning, type WarningCode } from '../engine/index.js';

export const PPTX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
export const PDF_CONTENT_TYPE = 'application/pdf';
export const PNG_CONTENT_TYPE = 'image/png';
export const ZIP_CONTENT_TYPE = 'application/zip';

/** The content type of a file we send, by its kind (or its name's extension); the deck's when unknown. */
export function contentTypeOf(kindOrFileName: string): string {
  const kind = /(?:^|\.)(pptx|pdf|png|zip)$/i.exec(kindOrFileName)?.[1]?.toLowerCase();
  if (kind === 'pdf') return PDF_CONTENT_TYPE;
  if (kind === 'png') return PNG_CONTENT_TYPE;
  if (kind === 'zip') return ZIP_CONTENT_TYPE;
  return PPTX_CONTENT_TYPE;
}

/** Header values longer than this are cut (whole warnings only) so proxies with 8 KB header limits keep working. */
const WARNINGS_DETAIL_BUDGET = 4000;

// RFC 8187 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function contentDisposition(fileName: string): string {
  // The quoted-string fallback: printable ASCII only, quotes and backslashes replaced.
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (fallback === fileName) return `attachment; filename="${fallback}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(fileName)}`;
}

/** JSON with every non-ASCII character escaped as \uXXXX: valid in a header and still valid JSON. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function warningHeaders(warnings: readonly Warning[]): Record<string, string> {
  const kept: Warning[] = [];
  for (const warning of warnings) {
    if (asciiJson([...kept, warning]).length > WARNINGS_DETAIL_BUDGET) break;
    kept.push(warning);
  }
  const unmatched = unmatchedHeader(warnings);
  return {
    'x-generation-warnings': String(warnings.length),
    'x-generation-warnings-detail': asciiJson(kept),
    ...(unmatched === null ? {} : { 'x-generation-unmatched': unmatched }),
  };
}

/** Past this the one-line summary names no more, and says how many it left out. */
const UNMATCHED_BUDGET = 300;
const UNMATCHED_KIND: Partial<Record<WarningCode, string>> = {
  UNKNOWN_KEY: 'key',
  SHAPE_NOT_FOUND: 'shape',
  TAG_NOT_USED: 'tag',
};

/**
 * `X-Generation-Unmatched`: one short line, for a reader of `curl -i`, when names in the payload matched nothing
 * (a misspelt shape or key, a tag no slide uses) or a template tag was left unfilled: the deck still comes back
 * (the interface's lenient default), most likely not as meant. Each is its kind, its name as the warning quotes
 * it, the "did you mean" the warning has, and where; the whole warnings are in X-Generation-Warnings-Detail.
 */
export function unmatchedHeader(warnings: readonly Warning[]): string | null {
  const items: string[] = [];
  for (const warning of warnings) {
    if (!warning.code || !UNMATCHED_NAME_CODES.has(warning.code)) continue;
    if (warning.code === 'TAG_UNFILLED') {
      // "output slide 0: shape "Subtitle" still shows {{company}}: …"
      const [, where, tag] = /^(.*?) still shows? (\{\{[^{}]*\}\})/.exec(warning.message) ?? [];
      items.push(`${tag ?? 'a tag'} unfilled at ${where?.replace(': ', ', ') ?? warning.path}`);
      continue;
    }
    const name = /"[^"]*"/.exec(warning.message)?.[0] ?? '';
    const near = /\(did you mean "[^"]*"\?\)/.exec(warning.message)?.[0];
    const kind = UNMATCHED_KIND[warning.code] ?? 'name';
    items.push(`${kind} ${name}${near ? ` ${near}` : ''} at ${warning.path.replace(/^presentation\./, '')}`);
  }
  if (items.length === 0) return null;
  let line = `${items.length} matched nothing: `;
  let listed = 0;
  for (const item of items) {
    const next = `${listed === 0 ? '' : '; '}${item}`;
    if (listed > 0 && line.length + next.length > UNMATCHED_BUDGET) break;
    line += next;
    listed++;
  }
  if (listed < items.length) line += `; and ${items.length - listed} more`;
  return headerSafe(`${line} (X-Generation-Warnings-Detail has them all)`);
}

/** Printable ASCII only: other characters as \\uXXXX, as the detail header writes them. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

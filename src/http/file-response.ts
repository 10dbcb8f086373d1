/**
 * Headers of a file response (sync generation, render and the signed download): the file's content type, an
 * attachment Content-Disposition carrying resultFileName (RFC 6266 / RFC 8187 `filename*` when the name is not
 * plain ASCII), and the generation warnings in header-safe form.
 */
import type { Warning } from '../engine/index.js';

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
  return {
    'x-generation-warnings': String(warnings.length),
    'x-generation-warnings-detail': asciiJson(kept),
  };
}

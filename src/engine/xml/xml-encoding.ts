/**
 * The text of bytes that are an XML document, in the encoding they are in (XML 1.0 Appendix F: a byte-order
 * mark, else the first characters, else the encoding the declaration names), or null when they are no XML
 * document at all. A parser that reads a part by its name alone (UTF-8 for `.xml`) sees a UTF-16 part, or a
 * part named otherwise, as no XML; LibreOffice sees its elements. An encoding that cannot be read here (UTF-32,
 * EBCDIC, an unknown label, a label that contradicts the bytes) is refused, never guessed.
 */
import { EngineError } from '../errors.js';

const DECLARATION_ENCODING = /^<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

export function xmlDocumentText(bytes: Uint8Array, partName: string): string | null {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) return decode('utf-8', bytes.subarray(3), partName);
  if (startsWith(bytes, [0, 0, 0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe, 0, 0])) {
    throw unreadable('UTF-32', partName);
  }
  if (startsWith(bytes, [0, 0, 0, 0x3c]) || startsWith(bytes, [0x3c, 0, 0, 0]))
    throw unreadable('UTF-32', partName);
  if (b0 === 0xff && b1 === 0xfe) return decode('utf-16le', bytes.subarray(2), partName);
  if (b0 === 0xfe && b1 === 0xff) return decode('utf-16be', bytes.subarray(2), partName);
  // No byte-order mark: "<" (or whitespace) in UTF-16 is a byte and a zero.
  if (b1 === 0 && b0 !== undefined && b0 !== 0 && isMarkupStart(b0))
    return markup(decode('utf-16le', bytes, partName));
  if (b0 === 0 && b1 !== undefined && isMarkupStart(b1)) return markup(decode('utf-16be', bytes, partName));
  if (b0 === 0x4c && b1 === 0x6f && bytes[2] === 0xa7 && bytes[3] === 0x94)
    throw unreadable('EBCDIC', partName);
  const first = firstNonSpace(bytes);
  if (bytes[first] !== 0x3c) return null;
  const head = String.fromCharCode(...bytes.subarray(first, first + 200));
  const label = DECLARATION_ENCODING.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  if (label.startsWith('utf-16') || label.startsWith('ucs') || label.startsWith('utf-32')) {
    throw new EngineError(
      'INVALID_TEMPLATE',
      `the part declares the encoding ${label} but is written in 8-bit characters`,
      partName,
    );
  }
  return decode(label, bytes, partName);
}

/** `text` when it starts (after white space) with markup, else null: bytes that only looked like UTF-16. */
function markup(text: string): string | null {
  return /^\s*</.test(text) ? text : null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, i) => bytes[i] === value);
}

/** Tab, line feed, carriage return, space, or "<". */
function isMarkupStart(byte: number): boolean {
  return byte === 0x3c || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function firstNonSpace(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && i < 1024 && isMarkupStart(bytes[i] as number) && bytes[i] !== 0x3c) i++;
  return i;
}

function decode(label: string, bytes: Uint8Array, partName: string): string {
  let decoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    throw unreadable(label, partName);
  }
  return decoder.decode(bytes);
}

function unreadable(encoding: string, partName: string): EngineError {
  return new EngineError(
    'INVALID_TEMPLATE',
    `the part is XML in the encoding ${encoding}, which is not read here: save the deck again in PowerPoint (UTF-8)`,
    partName,
  );
}

/**
 * Where malformed JSON goes wrong. `JSON.parse` does the parsing; only when it fails is the text scanned again
 * here, because V8's messages are inconsistent (some carry no position) and quote the whole input, which can be
 * megabytes. The scan is iterative so that deep nesting cannot overflow the stack. Nesting and size are limited
 * (MAX_JSON_DEPTH, MAX_JSON_PIECES), checked on the text before anything parses it.
 */
import { EngineError } from '../errors.js';

export interface JsonSyntaxError {
  /** Zero-based UTF-16 offset. */
  position: number;
  /** One-based. */
  line: number;
  column: number;
  message: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

function quote(ch: string | undefined): string {
  if (ch === undefined) return 'end of input';
  const code = ch.charCodeAt(0);
  return code < 0x20 ? `character U+${code.toString(16).padStart(4, '0').toUpperCase()}` : `"${ch}"`;
}

function at(text: string, position: number, message: string): JsonSyntaxError {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { position, line, column: position - lineStart + 1, message };
}

/** The first syntax error of `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const n = text.length;
  const stack: string[] = [];
  let i = 0;
  let state: 'value' | 'key' | 'after' = 'value';

  const skipSpace = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      i++;
    }
  };
  /** Scans a string starting at its opening quote; returns an error message or null. */
  const scanString = (): string | null => {
    i++;
    for (;;) {
      if (i >= n) return 'unterminated string';
      const ch = text[i] as string;
      if (ch === '"') {
        i++;
        return null;
      }
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!HEX4.test(text.slice(i + 2, i + 6))) return 'bad \\u escape (four hex digits expected)';
          i += 6;
        } else if (next !== undefined && ESCAPES.has(next)) {
          i += 2;
        } else {
          return `bad escape \\${next ?? ''}`;
        }
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) return `${quote(ch)} inside a string (escape it, e.g. \\n)`;
      i++;
    }
  };

  for (;;) {
    skipSpace();
    const ch = text[i];
    if (state === 'value') {
      if (ch === '{' || ch === '[') {
        i++;
        skipSpace();
        if (text[i] === (ch === '{' ? '}' : ']')) {
          i++;
          state = 'after';
        } else {
          stack.push(ch);
          state = ch === '{' ? 'key' : 'value';
        }
      } else if (ch === '"') {
        const problem = scanString();
        if (problem) return at(text, i, problem);
        state = 'after';
      } else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return at(text, i, 'bad number');
        i = NUMBER.lastIndex;
        state = 'after';
      } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
        i += 4;
        state = 'after';
      } else if (text.startsWith('false', i)) {
        i += 5;
        state = 'after';
      } else {
        return at(text, i, `unexpected ${quote(ch)}, expected a value`);
      }
    } else if (state === 'key') {
      if (ch !== '"')
        return at(text, i, `unexpected ${quote(ch)}, expected a property name in double quotes`);
      const problem = scanString();
      if (problem) return at(text, i, problem);
      skipSpace();
      if (text[i] !== ':') return at(text, i, `unexpected ${quote(text[i])}, expected ":"`);
      i++;
      state = 'value';
    } else {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        return i < n ? at(text, i, `unexpected ${quote(ch)} after the end of the JSON value`) : null;
      }
      const close = top === '{' ? '}' : ']';
      if (ch === ',') {
        i++;
        state = top === '{' ? 'key' : 'value';
      } else if (ch === close) {
        i++;
        stack.pop();
      } else {
        return at(text, i, `unexpected ${quote(ch)}, expected "," or "${close}"`);
      }
    }
  }
}

/**
 * Malformed JSON told for a person, in the same words wherever it is parsed (the jsonData field, a JSON request
 * body, the CLI's payload file, the console's playground): where, as line and column, what was found there, and
 * what usually fixes it. The text is only scanned again when JSON.parse has refused it.
 */
export function describeMalformedJson(text: string): string {
  const where = findJsonSyntaxError(text);
  if (!where) return 'not valid JSON';
  return `not valid JSON at line ${where.line}, column ${where.column}: ${where.message}; ${fixFor(text, where)}`;
}

/**
 * JSON.parse, with malformed text refused as INVALID_PAYLOAD at `path` in describeMalformedJson's words. Check
 * the limits first (checkJsonLimits).
 */
export function parseJsonText(text: string, path = 'jsonData'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError('INVALID_PAYLOAD', describeMalformedJson(text), path);
  }
}

/** What usually fixes the mistake findJsonSyntaxError found: the slips people make when writing JSON by hand. */
function fixFor(text: string, where: JsonSyntaxError): string {
  const found = text[where.position];
  const before = text.slice(0, where.position).trimEnd().at(-1);
  if ((found === '}' || found === ']') && before === ',')
    return `remove the "," before this "${found}" (JSON allows no trailing comma)`;
  if (found === "'") return 'JSON puts names and strings in double quotes ("…"), not single ones';
  if (found === '/') return 'JSON has no comments: remove them';
  if (where.message.startsWith('unterminated string')) return 'close the string with a double quote';
  if (found === undefined) return 'the text ends too early: a closing "}" or "]", or a value, is missing';
  if (where.message.includes('expected a property name')) return 'put the name in double quotes ("name": …)';
  if (where.message.includes('after the end of the JSON value'))
    return 'the document is one JSON value: remove what follows it';
  if (where.message.includes('expected "," or')) return 'a "," is missing before this place';
  if (where.message.includes('inside a string'))
    return 'a string holds no raw line break or tab: write it as \\n or \\t';
  if (where.message.includes('escape')) return 'a backslash in a string starts an escape: write it \\\\';
  return 'docs/payload.md shows the shape of a whole payload';
}

/**
 * How deep `jsonData` may nest (objects and arrays). The deepest payload the contract describes (a table cell's
 * runs' text_properties) is 12 levels; 64 leaves room for extensions and stays far below what recursive consumers
 * downstream can take (JSON.stringify, structured cloning to a worker thread overflow the stack at a few
 * thousand levels).
 */
export const MAX_JSON_DEPTH = 64;

/** Where `text` first nests deeper than `maxDepth`: the path of that object or array, and its offset. */
export interface JsonNestingProblem {
  /** JSON path from the root (`presentation.slides[0].x[0]`); '' for the root itself. */
  path: string;
  position: number;
}

/** The offset of the quote closing the string that opens at `start`, or the text's length when unclosed. */
function endOfString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * The first place `text` nests deeper than `maxDepth`, or null. Checked before JSON.parse (which takes any
 * depth), so one linear pass over brackets and strings, no tree; malformed text is JSON.parse's to report.
 */
export function findExcessiveNesting(text: string, maxDepth = MAX_JSON_DEPTH): JsonNestingProblem | null {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) i = endOfString(text, i);
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth) return { path: pathAt(text, i), position: i };
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return null;
}

/**
 * How many pieces a `jsonData` document may hold: objects, arrays, and line breaks inside strings (each line of
 * a text becomes a paragraph). Parsing builds objects per piece, and generation more for each: 4 million "\n"
 * in one text run (8 MB of JSON) took 3.3 s and 1.2 GB. A deck at
 * the default slide limit (5 000 slides, 20 paragraphs each) needs a twentieth of this.
 */
export const MAX_JSON_PIECES = 2_000_000;

/** Objects and arrays outside strings, and escaped line breaks inside them; counting stops past `stopAbove`. */
function countPieces(text: string, stopAbove: number): number {
  let count = 0;
  // Every backslash starts a two-character escape (\\ included), so the scan steps over the escaped character.
  for (let i = text.indexOf('\\'); i >= 0 && count <= stopAbove; i = text.indexOf('\\', i + 2)) {
    const escaped = text.charCodeAt(i + 1);
    if (escaped === 110 /* n */ || escaped === 114 /* r */) count++;
  }
  for (let i = 0; i < text.length && count <= stopAbove; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) i = endOfString(text, i);
    else if (c === 123 /* { */ || c === 91 /* [ */) count++;
  }
  return count;
}

/**
 * Refuses text nested deeper than MAX_JSON_DEPTH (naming the path, `root` when the document itself is the
 * culprit) or holding more than MAX_JSON_PIECES pieces, with INVALID_PAYLOAD. Call it before JSON.parse, and
 * before anything else handles the text.
 */
export function checkJsonLimits(text: string, root = 'jsonData'): void {
  const problem = findExcessiveNesting(text);
  if (problem) {
    throw new EngineError(
      'INVALID_PAYLOAD',
      `JSON nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (at offset ${problem.position}); ` +
        'no payload needs that many',
      problem.path === '' ? root : problem.path,
    );
  }
  if (countPieces(text, MAX_JSON_PIECES) > MAX_JSON_PIECES) {
    throw new EngineError(
      'INVALID_PAYLOAD',
      `the document holds more than ${MAX_JSON_PIECES} objects, arrays and line breaks; send a smaller deck, ` +
        'or split it into several requests',
      root,
    );
  }
}

/** Longest key quoted whole in a reported path. */
const PATH_KEY_CHARS = 40;

interface Frame {
  array: boolean;
  /** Array: the index of the current element. Object: the current key. */
  at: number | string;
}

/** The JSON path of the value starting at `position` (a second, slower pass, made only to report a refusal). */
function pathAt(text: string, position: number): string {
  const frames: Frame[] = [];
  let expectingKey = false;
  for (let i = 0; i < position; i++) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (c === 34) {
      const end = endOfString(text, i);
      if (expectingKey && top && !top.array) {
        top.at = keyText(text.slice(i, end + 1));
        expectingKey = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      frames.push({ array: c === 91, at: c === 91 ? 0 : '' });
      expectingKey = c === 123;
    } else if (c === 125 || c === 93) {
      frames.pop();
    } else if (c === 44 /* , */ && top) {
      if (top.array) top.at = (top.at as number) + 1;
      else expectingKey = true;
    }
  }
  let path = '';
  for (const frame of frames) {
    if (typeof frame.at === 'number') path += `[${frame.at}]`;
    else path = path === '' ? frame.at : `${path}.${frame.at}`;
  }
  return path;
}

function keyText(quoted: string): string {
  let key: string;
  try {
    key = JSON.parse(quoted) as string;
  } catch {
    key = quoted.slice(1, -1);
  }
  return key.length > PATH_KEY_CHARS ? `${key.slice(0, PATH_KEY_CHARS)}…` : key;
}

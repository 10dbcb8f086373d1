/**
 * Where malformed JSON goes wrong. `JSON.parse` does the parsing; only when it fails is the text scanned again
 * here, because V8's messages are inconsistent (some carry no position) and quote the whole input, which can be
 * megabytes. The scan is iterative so that deep nesting cannot overflow the stack.
 */
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

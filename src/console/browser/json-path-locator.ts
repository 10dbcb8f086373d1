/**
 * Finds where a JSON path from an error (`presentation.slides[0].shapes[1].content`) sits in the text the user
 * typed, so the playground can highlight it. A small scanner over the JSON text that records each value's offsets
 * by path; pure, and tested without a browser.
 */

export interface TextRange {
  start: number;
  end: number;
}

/** The first JSON path an error text names (`presentation.slides[0]…: expected …`), or null. */
export function firstJsonPath(details: string): string | null {
  const match = /\bpresentation(?:\.[A-Za-z_$][\w$]*|\[\d+\])*/.exec(details);
  return match ? match[0] : null;
}

type Segment = string | number;

export function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const match of path.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]/g))
    segments.push(match[1] !== undefined ? match[1] : Number(match[2]));
  return segments;
}

/**
 * The range of the value at `path` in `text`; when that value is missing, the deepest enclosing value that exists
 * (a missing field is reported on its parent). The payload may leave out the `presentation` wrapper
 * (docs/payload.md), so a path starting with it also matches from the root.
 */
export function locateJsonPath(text: string, path: string): TextRange | null {
  const segments = parsePath(path);
  const ranges = new Map<string, TextRange>();
  try {
    new Scanner(text, ranges).value([]);
  } catch {
    return null;
  }
  const tryFrom = (segs: Segment[]): TextRange | null => {
    for (let n = segs.length; n > 0; n--) {
      const found = ranges.get(key(segs.slice(0, n)));
      if (found) return found;
    }
    return null;
  };
  const withWrapper = tryFrom(segments);
  if (withWrapper || segments[0] !== 'presentation') return withWrapper;
  return tryFrom(segments.slice(1));
}

function key(segments: Segment[]): string {
  return JSON.stringify(segments);
}

class Scanner {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly ranges: Map<string, TextRange>,
  ) {}

  value(path: Segment[]): void {
    this.space();
    const start = this.at;
    const c = this.text[this.at];
    if (c === '{') this.object(path);
    else if (c === '[') this.array(path);
    else if (c === '"') this.string();
    else this.literal();
    if (path.length > 0) this.ranges.set(key(path), { start, end: this.at });
  }

  private object(path: Segment[]): void {
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      const name = this.string();
      this.space();
      this.expect(':');
      this.value([...path, name]);
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else return this.expect('}');
    }
  }

  private array(path: Segment[]): void {
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (let i = 0; ; i++) {
      this.value([...path, i]);
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else return this.expect(']');
    }
  }

  private string(): string {
    const start = this.at;
    this.expect('"');
    while (this.at < this.text.length && this.text[this.at] !== '"')
      this.at += this.text[this.at] === '\\' ? 2 : 1;
    this.expect('"');
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  private literal(): void {
    const match = /^-?[\w.+-]+/.exec(this.text.slice(this.at, this.at + 64));
    if (!match) throw new Error(`unexpected character at ${this.at}`);
    this.at += match[0].length;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private expect(c: string): void {
    if (this.text[this.at] !== c) throw new Error(`expected ${c} at ${this.at}`);
    this.at++;
  }
}

/** 1-based line and column of an offset, for the message beside the editor. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

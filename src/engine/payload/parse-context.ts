/**
 * Where the payload parser is, and what it has to say besides errors. The path is kept as a stack of keys and
 * turned into a string only when something needs it (an error, a warning, a model object's `path`); prefixes
 * are shared, so the paths of a slide's shapes all extend the slide's one string.
 */
import type { Warning } from '../errors.js';

export type PathKey = string | number;

/** A payload full of unknown keys must not turn into an unbounded warning list. */
export const MAX_PAYLOAD_WARNINGS = 1000;

export class ParseContext {
  private readonly kept: Warning[] = [];
  private dropped = 0;
  private readonly keys: PathKey[] = [];
  private depth = 0;
  /** prefixes[d]: the path of the first d keys, valid for d <= `valid`; shared by every path built below it. */
  private readonly prefixes: string[];
  private valid = 0;

  constructor(root: string) {
    this.prefixes = [root];
  }

  enter(key: PathKey): void {
    if (this.valid > this.depth) this.valid = this.depth;
    this.keys[this.depth++] = key;
  }

  leave(): void {
    this.depth--;
  }

  /** The JSON path of the current value, or of a value below it. */
  path(...below: PathKey[]): string {
    for (let d = this.valid + 1; d <= this.depth; d++) {
      this.prefixes[d] = joinPath(this.prefixes[d - 1] as string, this.keys[d - 1] as PathKey);
    }
    if (this.valid < this.depth) this.valid = this.depth;
    let p = this.prefixes[this.depth] as string;
    for (const key of below) p = joinPath(p, key);
    return p;
  }

  warn(message: string, ...below: PathKey[]): void {
    this.warnAt(this.path(...below), message);
  }

  warnAt(path: string, message: string): void {
    if (this.kept.length < MAX_PAYLOAD_WARNINGS) this.kept.push({ path, message });
    else this.dropped++;
  }

  /** The warnings, the last one saying how many more there were when the list was cut. */
  warnings(): Warning[] {
    if (this.dropped === 0) return this.kept;
    return [
      ...this.kept,
      { path: this.prefixes[0] as string, message: `${this.dropped} more warnings not listed` },
    ];
  }
}

export function joinPath(path: string, key: PathKey): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

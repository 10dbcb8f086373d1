/**
 * Where the payload parser is, and what it has to say besides errors. The path is kept as a stack of keys and
 * turned into a string only when something needs it (an error, a warning, a model object's `path`); prefixes
 * are shared, so the paths of a slide's shapes all extend the slide's one string.
 */
import type { Warning } from '../errors.js';

export type PathKey = string | number;

export class ParseContext {
  readonly warnings: Warning[] = [];
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
    this.warnings.push({ path: this.path(...below), message });
  }
}

export function joinPath(path: string, key: PathKey): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

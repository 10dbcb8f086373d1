/**
 * Where the payload parser is, and what it has found: warnings, and errors. The path is kept as a stack of keys
 * and turned into a string only when something needs it (an error, a warning, a model object's `path`);
 * prefixes are shared, so the paths of a slide's shapes all extend the slide's one string.
 *
 * Parsing goes on past a bad field or array item (`attempt`), so that one 400 lists every problem of a payload
 * — a naive client learns at once that `template` is missing *and* that a slide has no `slide_index`.
 */
import { EngineError, type Warning, type WarningCode } from '../errors.js';
import { MAX_LISTED_ERRORS, oneError } from '../error-list.js';
import { DEFAULT_LOCALE, LocaleText } from './locale-text.js';
import type { SlideLink } from './model.js';

export type PathKey = string | number;

/** A payload full of unknown keys must not turn into an unbounded warning list. */
export const MAX_PAYLOAD_WARNINGS = 1000;

/** Enough problems to fix in one go; a payload wrong everywhere gets the first 20. */
export const MAX_PAYLOAD_ERRORS = MAX_LISTED_ERRORS;

/** What `attempt` returns for a value whose error was recorded. */
export const INVALID: unique symbol = Symbol('invalid value');

/**
 * Thrown by an object or array that has a recorded error among its parts: it cannot be built, and there is
 * nothing new to report about it.
 */
export class Abandoned extends Error {
  constructor() {
    super('abandoned: its errors are recorded');
  }
}

/** Thrown once MAX_PAYLOAD_ERRORS are recorded: parsing stops and those are reported. */
class ErrorListFull extends Error {}

export class ParseContext {
  private readonly kept: Warning[] = [];
  private readonly errors: EngineError[] = [];
  private dropped = 0;
  private readonly keys: PathKey[] = [];
  private depth = 0;
  /** prefixes[d]: the path of the first d keys, valid for d <= `valid`; shared by every path built below it. */
  private readonly prefixes: string[];
  private valid = 0;
  /** Separators and names typed values are formatted with (`presentation.locale`). */
  readonly localeText: LocaleText;
  /** Every `{"slide": N}` hyperlink met, for generate.ts to check against the output's slides. */
  readonly slideLinks: SlideLink[] = [];

  constructor(root: string, locale: string = DEFAULT_LOCALE) {
    this.prefixes = [root];
    this.localeText = LocaleText.of(locale);
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

  /** Errors recorded so far (a container compares the count before and after its parts). */
  get errorCount(): number {
    return this.errors.length;
  }

  /**
   * Runs `parse` for the value at `key` below the current path (null: the current value). A payload error is
   * recorded and INVALID returned, so the caller goes on with its other fields or items.
   */
  attempt<T>(key: PathKey | null, parse: () => T): T | typeof INVALID {
    const depth = this.depth;
    if (key !== null) this.enter(key);
    try {
      return parse();
    } catch (error) {
      this.record(error);
      return INVALID;
    } finally {
      this.depth = depth;
    }
  }

  /** Throws what was recorded: the one error as it is, several as one error listing each with its path. */
  throwRecorded(): void {
    const error = oneError(this.errors);
    if (error) throw error;
  }

  private record(error: unknown): void {
    if (error instanceof Abandoned) return;
    if (!(error instanceof EngineError) || error.code !== 'INVALID_PAYLOAD') throw error;
    this.errors.push(error);
    if (this.errors.length >= MAX_PAYLOAD_ERRORS) throw new ErrorListFull();
  }

  /** Runs the whole parse; whatever it recorded is thrown at the end (ErrorListFull stops it early). */
  run<T>(parse: () => T): T {
    let result: T | typeof INVALID = INVALID;
    try {
      result = this.attempt(null, parse);
    } catch (error) {
      if (!(error instanceof ErrorListFull)) throw error;
    }
    this.throwRecorded();
    if (result === INVALID) throw new Error('payload parse failed without recording an error');
    return result;
  }

  warn(message: string, ...below: PathKey[]): void {
    this.warnAt(this.path(...below), message);
  }

  /** A key the contract does not know, ignored (`UNKNOWN_KEY`: a name in the payload that matched nothing). */
  warnUnknownKey(message: string, key: PathKey): void {
    this.warnAt(this.path(key), message, 'UNKNOWN_KEY');
  }

  warnAt(path: string, message: string, code?: WarningCode): void {
    if (this.kept.length < MAX_PAYLOAD_WARNINGS)
      this.kept.push(code ? { path, message, code } : { path, message });
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

/**
 * One flat string, not a concatenation (which V8 keeps as a chain of 32-byte links over its parts): the model of
 * a 20 000-slide payload holds 60 000 paths, and as chains they took more memory than all its text.
 */
export function joinPath(path: string, key: PathKey): string {
  if (typeof key === 'number') return [path, '[', key, ']'].join('');
  return path === '' ? key : [path, '.', key].join('');
}

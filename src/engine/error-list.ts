/**
 * Several problems of one request as one error, so that a single answer lists everything to change: the one
 * error as it is, several as one whose message numbers each (with its path). The code is theirs when they share
 * it, else INVALID_PAYLOAD.
 */
import { EngineError } from './errors.js';

/** Enough problems to fix in one go; a request wrong everywhere gets the first 20. */
export const MAX_LISTED_ERRORS = 20;

/** Several problems as one error, keeping each (`problemsOf`), so that a later check can add its own. */
export class ProblemList extends EngineError {
  constructor(
    code: EngineError['code'],
    message: string,
    readonly problems: readonly EngineError[],
  ) {
    super(code, message);
  }
}

/** The problems an error stands for: a ProblemList's, or the error itself. */
export function problemsOf(error: EngineError): readonly EngineError[] {
  return error instanceof ProblemList ? error.problems : [error];
}

export function oneError(errors: readonly EngineError[]): EngineError | null {
  const [first] = errors;
  if (first === undefined) return null;
  if (errors.length === 1) return first;
  const more = errors.length >= MAX_LISTED_ERRORS ? ' (the first ones; there may be more)' : '';
  const list = errors.map((e, i) => `(${i + 1}) ${e.message}`).join('; ');
  const code = errors.every((e) => e.code === first.code) ? first.code : 'INVALID_PAYLOAD';
  return new ProblemList(code, `${errors.length} problems${more}: ${list}`, errors);
}

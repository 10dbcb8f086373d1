import { EngineError } from '../../../src/engine/index.js';

/** The EngineError `run` throws. Fails the test when `run` throws nothing, or throws something else. */
export function engineErrorOf(run: () => unknown): EngineError {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw new Error(`expected an EngineError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected an EngineError, but nothing was thrown');
}

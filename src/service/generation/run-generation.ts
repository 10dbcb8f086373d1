/**
 * Generation on the pool, as every use case runs it: the deck written into `file` as it is built (or, up to
 * `memoryBytes`, given back as bytes: GenerationPool.generateToFile), the time it took counted for /metrics,
 * and a task stopped at the time budget turned into the limit error a user can act on.
 */
import { performance } from 'node:perf_hooks';
import type { GenerateResult, GenerateSummary } from '../../engine/index.js';
import { GenerationTimeLimitError } from '../errors.js';
import { GenerationTimeoutError, type GenerationTask } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

export async function runGeneration(
  deps: ServiceDeps,
  task: GenerationTask,
  file: string,
  signal?: AbortSignal,
  memoryBytes?: number,
): Promise<GenerateSummary | GenerateResult> {
  const started = performance.now();
  let result: GenerateSummary | GenerateResult;
  try {
    result = await deps.pool.generateToFile(task, file, signal, memoryBytes);
  } catch (error) {
    if (error instanceof GenerationTimeoutError) throw new GenerationTimeLimitError(error.budgetMs);
    throw error;
  }
  deps.counters.decks += 1;
  deps.counters.slides += result.slideCount;
  deps.counters.seconds += (performance.now() - started) / 1000;
  return result;
}

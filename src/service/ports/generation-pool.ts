/** Runs the engine off the event loop (a worker-thread pool on one machine). */
import type { GenerateResult, InspectResult } from '../../engine/index.js';

export interface GenerationTask {
  /** The parsed `jsonData` value (the engine normalises it again inside the worker; cheap). */
  payload: unknown;
  /** Uploaded files by name, and fetched URLs by URL. The pool may transfer (detach) these buffers. */
  files: ReadonlyMap<string, Uint8Array>;
}

export interface GenerationPool {
  /** Rejects with EngineError for template/payload problems, as the engine would. */
  generate(task: GenerationTask): Promise<GenerateResult>;
  inspect(templateBytes: Uint8Array): Promise<InspectResult>;
  /** Number of worker threads. */
  readonly size: number;
  close(): Promise<void>;
}

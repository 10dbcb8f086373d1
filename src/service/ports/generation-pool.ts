/** Runs the engine off the event loop (a worker-thread pool on one machine). */
import type {
  EngineError,
  GenerateResult,
  GenerateSummary,
  ImageLimits,
  InspectResult,
  PayloadFacts,
  RenderSafeCopy,
} from '../../engine/index.js';

/** `jsonData` for a thread to parse: its text as sent, or a value a transport parsed already (a JSON body). */
export interface PayloadSource {
  payload?: unknown;
  /** When given, `payload` is not sent. */
  payloadText?: string;
}

/**
 * A payload read on a thread: the facts the service needs before generating it, or the schema's refusal with the
 * template sources the payload still names clearly (for docs/payload.md, Validation modes; null when none).
 */
export type PayloadReading =
  | { accepted: true; facts: PayloadFacts }
  | { accepted: false; refusal: EngineError; outlineTemplates: string[] | null };

/**
 * `jsonData`: as text, parsed in the worker (a large payload is then never held by two threads at once, and a
 * string costs less to send than an object to clone), or the value a transport parsed already.
 */
export interface GenerationTask extends PayloadSource {
  /** Uploaded files by name, and fetched URLs by URL. The pool may transfer (detach) these buffers. */
  files: ReadonlyMap<string, Uint8Array>;
  /**
   * SHA-256 (hex) of files whose hash is already known (a stored template's), by name: the engine's template
   * cache is keyed by it and need not hash those bytes again.
   */
  fileHashes?: ReadonlyMap<string, string>;
  /** More files by name or URL, on disk: read by the thread that generates, so this thread never holds them. */
  filePaths?: ReadonlyMap<string, string>;
  /** Picture URLs that could not be fetched, with the reason (a picture using one is refused with it). */
  unavailable?: ReadonlyMap<string, string>;
  /** Caps on one picture, applied before anything decodes it. */
  imageLimits?: ImageLimits;
  /** Most slides the deck may have, continuation slides of long tables included (the engine refuses more). */
  maxSlides?: number;
  /** Told, now and then while the deck is built, how many of the payload's slide entries are written. */
  onProgress?: (slidesDone: number, slidesTotal: number) => void;
}

/** A payload to check against its templates without building the deck (the engine's `checkPayload`). */
export interface PayloadCheckTask extends PayloadSource {
  /** The templates it names, by name; not transferred. */
  files: ReadonlyMap<string, Uint8Array>;
  fileHashes?: ReadonlyMap<string, string>;
}

/** What the pool is doing now, for /healthz and /metrics. */
export interface GenerationPoolStats {
  /** Threads configured. */
  size: number;
  /** Threads running a task. */
  busy: number;
  /** Threads ready to take a task. The rest of `size` are starting (a replacement after a crash or a timeout). */
  idle: number;
  /** Tasks waiting for a thread. */
  waiting: number;
  /** How long no thread has been free to take work, in milliseconds; 0 while one is. */
  saturatedMs: number;
}

export interface GenerationPool {
  /**
   * Rejects with EngineError for template/payload problems, as the engine would, and with a LIMIT_EXCEEDED
   * EngineError naming the memory budget when the deck needs more than one generation may use; with
   * GenerationTimeoutError when the task ran past the pool's time budget (its thread is then replaced); with
   * GenerationPoolClosedError when the pool was closed before the task finished.
   */
  generate(task: GenerationTask): Promise<GenerateResult>;
  /**
   * As `generate`, but the deck goes into `file` (created or replaced) as it is built, so it is never whole in
   * memory. When the promise rejects, the file holds no deck: the caller deletes it. `signal` withdraws the
   * task (the client went away): a waiting task leaves the queue, a running one has its thread stopped and
   * replaced; either way the promise rejects with GenerationCancelledError. A deck of at most `memoryBytes`
   * (when given) comes back as bytes (a GenerateResult) instead, and no file is made: a small deck then costs
   * no file to write, read back and remove.
   */
  generateToFile(
    task: GenerationTask,
    file: string,
    signal?: AbortSignal,
    memoryBytes?: number,
  ): Promise<GenerateSummary | GenerateResult>;
  inspect(templateBytes: Uint8Array): Promise<InspectResult>;
  /**
   * The render-safe copy of a deck a renderer is to open (the engine's renderSafeCopy, docs/security.md
   * "What LibreOffice gets"): a hostile deck's copy takes a thread, never the event loop. The pool may transfer
   * (detach) `deck`. Rejects with EngineError when the deck is refused.
   */
  renderSafeCopy(deck: Uint8Array, limits: { maxPixels: number }): Promise<RenderSafeCopy>;
  /**
   * Resolves when the schema accepts the payload; rejects with an EngineError listing the schema's problems and
   * the template problems of what the payload still names clearly (docs/payload.md, Validation modes).
   */
  check(task: PayloadCheckTask): Promise<void>;
  /**
   * Checks `jsonData`'s nesting and size on its text (checkJsonLimits), then parses and validates it, on a
   * thread (docs/security.md, "Nothing of one request blocks the others"): only small facts come back. Rejects
   * with EngineError for a document that is not JSON or is past the limits, as the engine words it.
   */
  readPayload(source: PayloadSource): Promise<PayloadReading>;
  /** Number of worker threads. */
  readonly size: number;
  stats(): GenerationPoolStats;
  close(): Promise<void>;
}

/** A task ran longer than the time budget; its thread was stopped and replaced. */
export class GenerationTimeoutError extends Error {
  override readonly name = 'GenerationTimeoutError';
  constructor(readonly budgetMs: number) {
    super(`the task ran longer than its ${budgetMs} ms budget and was stopped`);
  }
}

/** The pool was closed (shutdown) while the task waited or ran: the work was not done, nor did it fail. */
export class GenerationPoolClosedError extends Error {
  override readonly name = 'GenerationPoolClosedError';
}

/** The task was withdrawn through its signal before it finished. */
export class GenerationCancelledError extends Error {
  override readonly name = 'GenerationCancelledError';
}

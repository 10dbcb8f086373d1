/** Messages between the pool (main thread) and a generation worker thread. Plain, structured-cloneable data. */
import type {
  GenerateResult,
  GenerateSummary,
  ImageLimits,
  InspectResult,
  PayloadFacts,
  RenderSafeCopy,
} from '../../engine/index.js';

/** What a thread is started with (its workerData). */
export interface ThreadSettings {
  /** Bytes the thread's parsed-template cache may hold; 0 keeps none; absent: TemplateCache's default. */
  templateCacheBytes?: number;
}

export type TaskMessage =
  | {
      id: number;
      kind: 'generate';
      payload: unknown;
      /** The `jsonData` document as text, parsed in the worker; `payload` is then unused. */
      payloadText: string | null;
      files: [string, Uint8Array][];
      /** SHA-256 of files whose hash is already known, by name (GenerationTask.fileHashes). */
      fileHashes: [string, string][];
      /** More files, by name, as paths the thread reads itself. */
      filePaths: [string, string][];
      /** Picture URLs that could not be fetched, with the reason. */
      unavailable: [string, string][];
      imageLimits: ImageLimits | null;
      maxSlides?: number;
      /** A file the worker writes the deck into as it is built (created or replaced); null: bytes come back. */
      output: string | null;
      /** With `output`: a deck of at most this many bytes comes back as bytes instead, and no file is made. */
      memoryBytes?: number;
      /** Send ProgressMessages while the deck is built. */
      reportProgress: boolean;
    }
  | { id: number; kind: 'inspect'; template: Uint8Array }
  /** The render-safe copy of a deck a renderer is to open (the engine's renderSafeCopy). */
  | { id: number; kind: 'render-copy'; deck: Uint8Array; maxPixels: number }
  /** Parse and validate `jsonData`, answering only the facts the service needs (engine's payloadFacts). */
  | { id: number; kind: 'read-payload'; payload: unknown; payloadText: string | null }
  | {
      id: number;
      kind: 'check';
      payload: unknown;
      payloadText: string | null;
      files: [string, Uint8Array][];
      fileHashes: [string, string][];
    };

export interface SerializedError {
  /** True for an EngineError: a template or payload problem the user can fix. */
  engine: boolean;
  code: string | null;
  /** The message as the engine built it (without the path prefix the EngineError constructor adds). */
  message: string;
  path: string | null;
  stack: string | null;
}

export type ResultMessage =
  | { id: number; ok: true; kind: 'generate'; result: GenerateResult | GenerateSummary }
  | { id: number; ok: true; kind: 'inspect'; result: InspectResult }
  | { id: number; ok: true; kind: 'render-copy'; result: RenderSafeCopy }
  | { id: number; ok: true; kind: 'check' }
  | {
      id: number;
      ok: true;
      kind: 'read-payload';
      result:
        | { accepted: true; facts: PayloadFacts }
        | { accepted: false; refusal: SerializedError; outlineTemplates: string[] | null };
    }
  | { id: number; ok: false; error: SerializedError };

/**
 * Sent as soon as a thread takes a task, before its result: the time budget runs from then, so a thread still
 * loading its modules is not charged for it.
 */
export interface StartedMessage {
  id: number;
  started: true;
}

/**
 * Sent when the thread starts its image conversion process (its id) and when that process ends (null): the
 * pool kills it when it stops the thread, since libvips' work there is out of the thread's reach.
 */
export interface ConverterMessage {
  converterPid: number | null;
}

/** How far a generate task is (sent at most every PROGRESS_INTERVAL_MS, and for the last slide). */
export interface ProgressMessage {
  id: number;
  progress: { slidesDone: number; slidesTotal: number };
}

export const PROGRESS_INTERVAL_MS = 250;

/** Everything a thread sends. */
export type WorkerMessage = StartedMessage | ConverterMessage | ProgressMessage | ResultMessage;

/** The buffer of `bytes` may be moved to another thread only when no other view shares it. */
export function transferable(bytes: Uint8Array): ArrayBuffer | null {
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer)) return null;
  return bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? buffer : null;
}

export function transferList(all: Uint8Array[]): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const bytes of all) {
    const buffer = transferable(bytes);
    if (buffer) seen.add(buffer);
  }
  return [...seen];
}

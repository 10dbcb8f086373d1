/** Messages between the pool (main thread) and a generation worker thread. Plain, structured-cloneable data. */
import type { GenerateResult, InspectResult } from '../engine/index.js';

export type TaskMessage =
  | { id: number; kind: 'generate'; payload: unknown; files: [string, Uint8Array][] }
  | { id: number; kind: 'inspect'; template: Uint8Array };

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
  | { id: number; ok: true; kind: 'generate'; result: GenerateResult }
  | { id: number; ok: true; kind: 'inspect'; result: InspectResult }
  | { id: number; ok: false; error: SerializedError };

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

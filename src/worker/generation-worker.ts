/**
 * A generation worker thread: runs the engine's `generate` / `inspect` for the pool, with its own TemplateCache
 * (a template used again is not reopened). Results travel back by transfer, not copy.
 */
import { parentPort } from 'node:worker_threads';
import { EngineError, generate, inspect, TemplateCache } from '../engine/index.js';
import {
  transferList,
  type ResultMessage,
  type SerializedError,
  type TaskMessage,
} from './generation-protocol.js';

const cache = new TemplateCache({ maxEntries: 16, maxBytes: 256 * 2 ** 20 });

function serialize(error: unknown): SerializedError {
  if (error instanceof EngineError) {
    const prefix = error.path ? `${error.path}: ` : '';
    const message =
      prefix && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { engine: true, code: error.code, message, path: error.path, stack: error.stack ?? null };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  return { engine: false, code: null, message: plain.message, path: null, stack: plain.stack ?? null };
}

function handle(task: TaskMessage): void {
  const port = parentPort;
  if (!port) return;
  try {
    if (task.kind === 'generate') {
      const result = generate({ payload: task.payload, files: new Map(task.files), cache });
      const message: ResultMessage = { id: task.id, ok: true, kind: 'generate', result };
      port.postMessage(message, transferList([result.bytes]));
    } else {
      const message: ResultMessage = {
        id: task.id,
        ok: true,
        kind: 'inspect',
        result: inspect(task.template),
      };
      port.postMessage(message);
    }
  } catch (error) {
    const message: ResultMessage = { id: task.id, ok: false, error: serialize(error) };
    port.postMessage(message);
  }
}

parentPort?.on('message', handle);

/**
 * The GenerationPool of one machine: N worker threads (DECKFORGE_WORKERS, default the core count), each running
 * one task at a time; tasks wait in a FIFO queue. A thread that dies (out of memory, a crash) fails its task and
 * is replaced. Uploaded bytes are transferred to the thread when nothing else shares their buffer.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  EngineError,
  type EngineErrorCode,
  type GenerateResult,
  type InspectResult,
} from '../engine/index.js';
import type { GenerationPool, GenerationTask } from '../service/ports/index.js';
import {
  transferList,
  type ResultMessage,
  type SerializedError,
  type TaskMessage,
} from './generation-protocol.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type TaskBody = DistributiveOmit<TaskMessage, 'id'>;

interface PendingTask {
  message: TaskMessage;
  transfer: ArrayBuffer[];
  resolve: (result: ResultMessage) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: PendingTask | null;
}

/** Worker entry: the compiled .js next to this file, or (tests running the TypeScript sources) the .ts via tsx. */
function spawnWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return new Worker(new URL('./generation-worker.js', import.meta.url));
  const entry = pathToFileURL(here.replace(/worker-thread-pool\.ts$/, 'generation-worker.ts')).href;
  // require.resolve finds the CommonJS entry; the worker imports the ES module one beside it.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(bootstrap, { eval: true });
}

export class WorkerThreadPool implements GenerationPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: PendingTask[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`pool size must be a positive integer, got ${size}`);
    for (let i = 0; i < size; i++) this.slots.push(this.startSlot());
  }

  async generate(task: GenerationTask): Promise<GenerateResult> {
    const files = [...task.files];
    const reply = await this.run(
      { kind: 'generate', payload: task.payload, files },
      transferList(files.map(([, b]) => b)),
    );
    if (reply.ok && reply.kind === 'generate') return reply.result;
    throw this.failure(reply);
  }

  async inspect(templateBytes: Uint8Array): Promise<InspectResult> {
    const reply = await this.run({ kind: 'inspect', template: templateBytes }, []);
    if (reply.ok && reply.kind === 'inspect') return reply.result;
    throw this.failure(reply);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new Error('the generation pool is shutting down'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private run(body: TaskBody, transfer: ArrayBuffer[]): Promise<ResultMessage> {
    if (this.closed) return Promise.reject(new Error('the generation pool is closed'));
    return new Promise((resolve, reject) => {
      const message = { ...body, id: this.nextId++ } as TaskMessage;
      this.waiting.push({ message, transfer, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const task = this.waiting.shift();
      if (!task) return;
      slot.busy = task;
      // A busy thread keeps the process alive (a `deckforge worker` has nothing else to); an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage(task.message, task.transfer);
    }
  }

  private startSlot(): Slot {
    const slot: Slot = { worker: spawnWorker(), busy: null };
    slot.worker.on('message', (reply: ResultMessage) => {
      const task = slot.busy;
      slot.busy = null;
      slot.worker.unref();
      if (task && task.message.id === reply.id) task.resolve(reply);
      this.dispatch();
    });
    const replace = (error: Error): void => {
      const task = slot.busy;
      slot.busy = null;
      task?.reject(new Error(`the generation worker stopped unexpectedly: ${error.message}`));
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.startSlot();
      this.dispatch();
    };
    slot.worker.on('error', replace);
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) replace(new Error(`exit code ${code}`));
    });
    slot.worker.unref();
    return slot;
  }

  private failure(reply: ResultMessage): Error {
    if (reply.ok) return new Error('the generation worker answered a different task');
    return rebuild(reply.error);
  }
}

function rebuild(error: SerializedError): Error {
  if (error.engine && error.code)
    return new EngineError(error.code as EngineErrorCode, error.message, error.path);
  const rebuilt = new Error(error.message);
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}

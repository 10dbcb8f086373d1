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
  /** Replies received: 0 means the thread died before doing any work (a broken install, not a bad deck). */
  replies: number;
  dead: boolean;
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
  /** Threads that died in a row before answering anything; backs off respawning and fails waiting tasks. */
  private startFailures = 0;

  constructor(
    readonly size: number,
    /** Starts one thread; tests substitute threads that crash to exercise replacement. */
    private readonly startWorker: () => Worker = spawnWorker,
  ) {
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
      if (slot.busy || slot.dead) continue;
      const task = this.waiting.shift();
      if (!task) return;
      slot.busy = task;
      // A busy thread keeps the process alive (a `deckforge worker` has nothing else to); an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage(task.message, task.transfer);
    }
  }

  private startSlot(): Slot {
    const slot: Slot = { worker: this.startWorker(), busy: null, replies: 0, dead: false };
    slot.worker.on('message', (reply: ResultMessage) => {
      const task = slot.busy;
      slot.busy = null;
      slot.replies += 1;
      this.startFailures = 0;
      slot.worker.unref();
      if (task && task.message.id === reply.id) task.resolve(reply);
      this.dispatch();
    });
    const replace = (error: Error): void => {
      if (slot.dead) return;
      slot.dead = true;
      const task = slot.busy;
      slot.busy = null;
      task?.reject(new Error(`the generation worker stopped unexpectedly: ${error.message}`));
      if (this.closed) return;
      if (slot.replies === 0) this.startFailures += 1;
      if (this.startFailures >= 2 * this.size) {
        // Every thread dies before working: waiting would be forever. Fail fast, keep retrying in the background.
        for (const waiting of this.waiting.splice(0)) {
          waiting.reject(new Error(`the generation workers cannot start: ${error.message}`));
        }
      }
      const delay = this.startFailures === 0 ? 0 : Math.min(5000, 50 * 2 ** this.startFailures);
      const respawn = setTimeout(() => {
        if (this.closed) return;
        const index = this.slots.indexOf(slot);
        if (index >= 0) this.slots[index] = this.startSlot();
        this.dispatch();
      }, delay);
      respawn.unref();
    };
    slot.worker.on('error', replace);
    slot.worker.on('exit', (code) => replace(new Error(`exit code ${code}`)));
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

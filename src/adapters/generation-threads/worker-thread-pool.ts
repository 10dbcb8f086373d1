/**
 * The GenerationPool of one machine: N worker threads (DECKFORGE_WORKERS, default the core count), each running
 * one task at a time; tasks wait in a FIFO queue. A thread that dies (out of memory, a crash) fails its task and
 * is replaced; so is a thread whose task runs past the time budget (DECKFORGE_GENERATION_TIMEOUT_SECONDS, counted
 * from when the thread takes the task): it is terminated, whatever it is doing. Uploaded bytes are transferred to
 * the thread when nothing else shares their buffer.
 *
 * Each thread runs under a memory budget (V8's resourceLimits, DECKFORGE_GENERATION_MEMORY_MB): a deck that
 * needs more ends its thread at that point, and its task fails with a LIMIT_EXCEEDED EngineError that names the
 * budget and what to change, instead of the process growing until the machine or V8 gives up.
 */
import { basename, dirname } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
// The error type alone (engine/errors.ts): the CLI's main thread hosts this pool and must not load the engine.
import { EngineError, type EngineErrorCode } from '../../engine/errors.js';
import type { GenerateResult, GenerateSummary, InspectResult, RenderSafeCopy } from '../../engine/index.js';
import { loadSharp } from '../../image-preparation/load-sharp.js';
import { typescriptWorker } from './typescript-worker.js';
import {
  GenerationCancelledError,
  GenerationPoolClosedError,
  GenerationTimeoutError,
  type GenerationPool,
  type GenerationPoolStats,
  type GenerationTask,
  type PayloadCheckTask,
  type PayloadReading,
  type PayloadSource,
} from '../../service/ports/index.js';
import {
  transferList,
  type ResultMessage,
  type SerializedError,
  type TaskMessage,
  type ThreadSettings,
  type WorkerMessage,
} from './generation-protocol.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type TaskBody = DistributiveOmit<TaskMessage, 'id'>;

interface PendingTask {
  message: TaskMessage;
  transfer: ArrayBuffer[];
  resolve: (result: ResultMessage) => void;
  reject: (error: Error) => void;
  onProgress?: ((slidesDone: number, slidesTotal: number) => void) | undefined;
}

interface Slot {
  worker: Worker;
  busy: PendingTask | null;
  /** Stops the busy task's thread when the task outruns the time budget. */
  deadline: NodeJS.Timeout | null;
  /** Replies received: 0 means the thread died before doing any work (a broken install, not a bad deck). */
  replies: number;
  dead: boolean;
  /** The thread's image conversion process, if running: out of terminate()'s reach, so killed with it. */
  converterPid: number | null;
}

export interface WorkerThreadPoolOptions {
  /** Longest a task may run on a thread once the thread has taken it, in milliseconds (default: no limit). */
  taskTimeoutMs?: number;
  /** Milliseconds since some epoch, for the saturation figure (tests substitute a clock). */
  now?: () => number;
  /** Heap budget of one generation in MB (each thread's V8 old generation); default: V8's own. */
  memoryBudgetMb?: number;
  /**
   * Load sharp (libvips) on this thread before any generation thread can (default true): a thread that ends
   * must not unload it under the others, and the service replaces threads. A pool that lives for one deck
   * (`deckforge generate`) passes false: it spares every deck ~30 ms and ~20 MB, and a thread that converts a
   * picture loads sharp itself.
   */
  loadImageLibraryFirst?: boolean;
  /**
   * Bytes each thread's parsed-template cache may hold (generation-protocol.ts, ThreadSettings); 0 keeps no
   * template between tasks. Default: TemplateCache's own bound.
   */
  templateCacheBytes?: number;
}

/**
 * The thread's bundle: beside this module in dist/adapters/generation-threads/, or reached from the CLI's bundle
 * in dist/cli/, which carries this module inside it.
 */
function threadBundle(here: string): URL {
  const beside = basename(dirname(here)) === 'generation-threads';
  return new URL(
    beside ? './generation-thread.bundle.js' : '../adapters/generation-threads/generation-thread.bundle.js',
    import.meta.url,
  );
}

/**
 * Thread entry: the build's one-file bundle of generation-thread.ts (`npm run build`; one module instead of ~70 starts
 * faster and takes ~5 MB less memory per thread), or (tests running the TypeScript sources) the .ts via tsx.
 */
function spawnWorker(resourceLimits: ResourceLimits = {}, workerData: ThreadSettings = {}): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return new Worker(threadBundle(here), { resourceLimits, workerData });
  const entry = pathToFileURL(here.replace(/worker-thread-pool\.ts$/, 'generation-thread.ts')).href;
  return typescriptWorker(entry, import.meta.url, { resourceLimits, workerData });
}

/**
 * The young generation of each thread, far smaller than V8's default (16 MB semi-spaces on 64-bit): a deck's
 * garbage (slide trees, serialised XML) dies young either way, and a smaller nursery is collected more often.
 * 20 000 text slides peaked at ~195 MB with the default, ~155 MB with 4 MB (143 MB through the CLI against
 * 146–154 MB with 8 MB), in no more time (bench/large/run.js, bench/README.md).
 */
const YOUNG_GENERATION_MB = 4;

/** The text a user sees when a deck needs more than the budget: the figure, the setting, what to change. */
export function memoryBudgetMessage(megabytes: number): string {
  return (
    `the deck needs more memory than one generation may use (${megabytes} MB, DECKFORGE_GENERATION_MEMORY_MB): ` +
    'ask for fewer slides per request, or use a lighter template (`deckforge inspect` shows the XML size of ' +
    'each slide: a slide of megabytes costs far more than a plain one), or raise DECKFORGE_GENERATION_MEMORY_MB'
  );
}

export class WorkerThreadPool implements GenerationPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: PendingTask[] = [];
  private nextId = 1;
  private closed = false;
  /** Threads that died in a row before answering anything; backs off respawning and fails waiting tasks. */
  private startFailures = 0;
  private readonly taskTimeoutMs: number;
  private readonly now: () => number;
  private readonly memoryBudgetMb: number | null;
  private readonly threadSettings: ThreadSettings = {};
  /** When the last free thread was taken (or died); null while a thread is free. */
  private saturatedSince: number | null = null;

  constructor(
    readonly size: number,
    /** Starts one thread; tests substitute threads that crash or hang to exercise replacement. */
    private readonly startWorker: (
      resourceLimits: ResourceLimits,
      settings: ThreadSettings,
    ) => Worker = spawnWorker,
    options: WorkerThreadPoolOptions = {},
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`pool size must be a positive integer, got ${size}`);
    this.taskTimeoutMs = options.taskTimeoutMs ?? Infinity;
    this.now = options.now ?? Date.now;
    this.memoryBudgetMb = options.memoryBudgetMb ?? null;
    if (options.templateCacheBytes !== undefined)
      this.threadSettings = { templateCacheBytes: options.templateCacheBytes };
    if (options.loadImageLibraryFirst ?? true) loadSharp();
    for (let i = 0; i < size; i++) this.slots.push(this.startSlot());
  }

  async generate(task: GenerationTask): Promise<GenerateResult> {
    const result = await this.generateInto(task, null);
    if (!('bytes' in result)) throw new Error('the generation worker sent no bytes');
    return result;
  }

  generateToFile(
    task: GenerationTask,
    file: string,
    signal?: AbortSignal,
    memoryBytes?: number,
  ): Promise<GenerateSummary | GenerateResult> {
    return this.generateInto(task, file, signal, memoryBytes);
  }

  private async generateInto(
    task: GenerationTask,
    output: string | null,
    signal?: AbortSignal,
    memoryBytes?: number,
  ): Promise<GenerateResult | GenerateSummary> {
    const files = [...task.files];
    const reply = await this.run(
      {
        kind: 'generate',
        // With the text, the thread parses that: the object is not sent as well.
        payload: task.payloadText === undefined ? task.payload : undefined,
        payloadText: task.payloadText ?? null,
        files,
        fileHashes: [...(task.fileHashes ?? [])],
        filePaths: [...(task.filePaths ?? [])],
        unavailable: [...(task.unavailable ?? [])],
        imageLimits: task.imageLimits ?? null,
        maxSlides: task.maxSlides,
        output,
        ...(memoryBytes === undefined ? {} : { memoryBytes }),
        reportProgress: task.onProgress !== undefined,
      },
      transferList(files.map(([, b]) => b)),
      signal,
      task.onProgress,
    );
    if (reply.ok && reply.kind === 'generate') return reply.result;
    throw this.failure(reply);
  }

  async inspect(templateBytes: Uint8Array): Promise<InspectResult> {
    const reply = await this.run({ kind: 'inspect', template: templateBytes }, []);
    if (reply.ok && reply.kind === 'inspect') return reply.result;
    throw this.failure(reply);
  }

  async renderSafeCopy(deck: Uint8Array, limits: { maxPixels: number }): Promise<RenderSafeCopy> {
    const reply = await this.run(
      { kind: 'render-copy', deck, maxPixels: limits.maxPixels },
      transferList([deck]),
    );
    if (reply.ok && reply.kind === 'render-copy') return reply.result;
    throw this.failure(reply);
  }

  async check(task: PayloadCheckTask): Promise<void> {
    const files = [...task.files];
    const reply = await this.run(
      {
        kind: 'check',
        payload: task.payloadText === undefined ? task.payload : undefined,
        payloadText: task.payloadText ?? null,
        files,
        fileHashes: [...(task.fileHashes ?? [])],
      },
      [],
    );
    if (reply.ok && reply.kind === 'check') return;
    throw this.failure(reply);
  }

  async readPayload(source: PayloadSource): Promise<PayloadReading> {
    const reply = await this.run(
      {
        kind: 'read-payload',
        payload: source.payloadText === undefined ? source.payload : undefined,
        payloadText: source.payloadText ?? null,
      },
      [],
    );
    if (!reply.ok || reply.kind !== 'read-payload') throw this.failure(reply);
    const { result } = reply;
    if (result.accepted) return result;
    return {
      accepted: false,
      refusal: rebuild(result.refusal) as EngineError,
      outlineTemplates: result.outlineTemplates,
    };
  }

  stats(): GenerationPoolStats {
    const live = this.slots.filter((slot) => !slot.dead);
    const busy = live.filter((slot) => slot.busy).length;
    const since = this.saturatedSince;
    return {
      size: this.size,
      busy,
      idle: live.length - busy,
      waiting: this.waiting.length,
      saturatedMs: since === null ? 0 : Math.max(0, this.now() - since),
    };
  }

  /** Fails waiting and running tasks with GenerationPoolClosedError and terminates every thread now. */
  async close(): Promise<void> {
    this.closed = true;
    const closedError = () => new GenerationPoolClosedError('the generation pool is shutting down');
    for (const task of this.waiting.splice(0)) task.reject(closedError());
    for (const slot of this.slots) this.release(slot)?.reject(closedError());
    this.slots.forEach(killConverter);
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private run(
    body: TaskBody,
    transfer: ArrayBuffer[],
    signal?: AbortSignal,
    onProgress?: (slidesDone: number, slidesTotal: number) => void,
  ): Promise<ResultMessage> {
    if (this.closed) return Promise.reject(new GenerationPoolClosedError('the generation pool is closed'));
    const cancelled = () => new GenerationCancelledError('the task was withdrawn');
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise<ResultMessage>((resolve, reject) => {
      const message = { ...body, id: this.nextId++ } as TaskMessage;
      const task: PendingTask = { message, transfer, resolve, reject, onProgress };
      this.waiting.push(task);
      if (signal) {
        const withdraw = (): void => {
          const index = this.waiting.indexOf(task);
          if (index >= 0) {
            this.waiting.splice(index, 1);
            reject(cancelled());
            return;
          }
          // Already running: the thread is stopped like one past its time budget, and replaced.
          const slot = this.slots.find((s) => s.busy === task);
          if (slot) this.stopTask(slot, cancelled());
        };
        signal.addEventListener('abort', withdraw, { once: true });
        const settled = () => signal.removeEventListener('abort', withdraw);
        task.resolve = (result) => {
          settled();
          resolve(result);
        };
        task.reject = (error) => {
          settled();
          reject(error);
        };
      }
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy || slot.dead) continue;
      const task = this.waiting.shift();
      if (!task) break;
      slot.busy = task;
      // A busy thread keeps the process alive (a `deckforge worker` has nothing else to); an idle one does not.
      slot.worker.ref();
      try {
        // Structured cloning can throw (a payload nested deeper than the clone's stack allows): that task
        // fails, and the thread, which never saw it, stays free for the next one.
        slot.worker.postMessage(task.message, task.transfer);
      } catch (error) {
        this.release(slot);
        task.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
    }
    this.noteSaturation();
  }

  /** The thread took the task: its time budget starts now. */
  private startDeadline(slot: Slot): void {
    if (!Number.isFinite(this.taskTimeoutMs) || slot.deadline) return;
    slot.deadline = setTimeout(() => this.expire(slot), this.taskTimeoutMs);
    slot.deadline.unref();
  }

  /** Frees the slot of its task (returned) and its deadline; the thread may take work again. */
  private release(slot: Slot): PendingTask | null {
    const task = slot.busy;
    slot.busy = null;
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    slot.worker.unref();
    return task;
  }

  /** The slot's task outran the budget: the thread is terminated (it may be in an endless loop) and replaced. */
  private expire(slot: Slot): void {
    this.stopTask(slot, new GenerationTimeoutError(this.taskTimeoutMs));
  }

  /** Terminates the slot's thread (whatever it is doing), fails its task with `error`, starts a new thread. */
  private stopTask(slot: Slot, error: Error): void {
    const task = this.release(slot);
    if (!task || slot.dead) return;
    slot.dead = true;
    task.reject(error);
    killConverter(slot);
    void slot.worker.terminate();
    this.replaceSlot(slot, 0);
  }

  private noteSaturation(): void {
    const free = this.slots.some((slot) => !slot.dead && !slot.busy);
    if (free) this.saturatedSince = null;
    else this.saturatedSince ??= this.now();
  }

  private replaceSlot(slot: Slot, delay: number): void {
    this.noteSaturation();
    const respawn = setTimeout(() => {
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.startSlot();
      this.dispatch();
    }, delay);
    respawn.unref();
  }

  private startSlot(): Slot {
    const limits: ResourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
    if (this.memoryBudgetMb !== null) limits.maxOldGenerationSizeMb = this.memoryBudgetMb;
    const slot: Slot = {
      worker: this.startWorker(limits, this.threadSettings),
      busy: null,
      deadline: null,
      replies: 0,
      dead: false,
      converterPid: null,
    };
    slot.worker.on('message', (reply: WorkerMessage) => {
      if ('converterPid' in reply) {
        slot.converterPid = reply.converterPid;
        return;
      }
      if ('started' in reply) {
        if (slot.busy?.message.id === reply.id) this.startDeadline(slot);
        return;
      }
      if ('progress' in reply) {
        if (slot.busy?.message.id === reply.id)
          slot.busy.onProgress?.(reply.progress.slidesDone, reply.progress.slidesTotal);
        return;
      }
      const task = this.release(slot);
      slot.replies += 1;
      this.startFailures = 0;
      if (task && task.message.id === reply.id) task.resolve(reply);
      this.dispatch();
    });
    const replace = (error: Error): void => {
      if (slot.dead) return;
      slot.dead = true;
      killConverter(slot);
      // Out of memory is the task's deck, not a broken thread: its own message, and no start failure.
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.release(slot)?.reject(
        outOfMemory
          ? new EngineError('LIMIT_EXCEEDED', memoryBudgetMessage(this.memoryBudgetMb ?? heapLimitMb()))
          : new Error(`the generation worker stopped unexpectedly: ${error.message}`),
      );
      if (this.closed) return;
      if (slot.replies === 0 && !outOfMemory) this.startFailures += 1;
      if (this.startFailures >= 2 * this.size) {
        // Every thread dies before working: waiting would be forever. Fail fast, keep retrying in the background.
        for (const waiting of this.waiting.splice(0)) {
          waiting.reject(new Error(`the generation workers cannot start: ${error.message}`));
        }
      }
      this.replaceSlot(slot, this.startFailures === 0 ? 0 : Math.min(5000, 50 * 2 ** this.startFailures));
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

function killConverter(slot: Slot): void {
  if (slot.converterPid === null) return;
  try {
    process.kill(slot.converterPid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  slot.converterPid = null;
}

/** V8's own heap limit of a thread started without a budget. */
function heapLimitMb(): number {
  return Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
}

function rebuild(error: SerializedError): Error {
  if (error.engine && error.code)
    return new EngineError(error.code as EngineErrorCode, error.message, error.path);
  const rebuilt = new Error(error.message);
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}

/**
 * A generation worker thread: runs the engine's `generate` / `inspect` / `checkPayload` / `renderSafeCopy` for the pool, with its own TemplateCache
 * (a template used again is not reopened), bounded by the bytes the pool gives it (ThreadSettings). Pictures
 * that need decoding are converted first (image-preparation/), so the engine stays synchronous. A deck goes
 * into the task's output file as it is built, or comes back as bytes, by transfer, not copy.
 */
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { parentPort, resourceLimits, workerData } from 'node:worker_threads';
import {
  checkJsonLimits,
  checkPayload,
  DEFAULT_IMAGE_LIMITS,
  EngineError,
  generate,
  inspect,
  parseJsonText,
  parsePayload,
  parsePayloadText,
  payloadFacts,
  payloadOutline,
  renderSafeCopy,
  TemplateCache,
  type ParsedPayload,
} from '../../engine/index.js';
import {
  ConversionProcess,
  CONVERSION_TIMEOUT_MS,
  conversionMemoryMb,
} from '../../image-preparation/conversion-process.js';
import { prepareImages } from '../../image-preparation/prepare-images.js';
import { writingTo } from './file-sink.js';
import {
  transferList,
  type ResultMessage,
  type SerializedError,
  type ConverterMessage,
  type StartedMessage,
  type ProgressMessage,
  PROGRESS_INTERVAL_MS,
  type TaskMessage,
  type ThreadSettings,
} from './generation-protocol.js';

/** This thread's image conversion process; the pool learns its id, to kill it with the thread. */
const converter = new ConversionProcess(
  { timeoutMs: CONVERSION_TIMEOUT_MS, memoryMb: conversionMemoryMb(resourceLimits.maxOldGenerationSizeMb) },
  (pid) => parentPort?.postMessage({ converterPid: pid } satisfies ConverterMessage),
);

const { templateCacheBytes } = (workerData ?? {}) as ThreadSettings;
const newCache = (): TemplateCache =>
  new TemplateCache(templateCacheBytes === undefined ? {} : { maxBytes: templateCacheBytes });
let cache = newCache();

/**
 * Cached templates live in the thread's memory budget (the pool's resourceLimits). When they hold half of it, a
 * large deck could run out for their sake alone: the cache starts again empty (a template is reopened in ms).
 */
function keepRoomInBudget(): void {
  const budgetMb = resourceLimits.maxOldGenerationSizeMb;
  if (budgetMb && getHeapStatistics().used_heap_size > (budgetMb * 2 ** 20) / 2) cache = newCache();
}

/**
 * The payload, normalised. The raw document is dropped from the task at once: the deck is built from the
 * normalised request, and a payload of 20 000 slides is megabytes that need not live through the build.
 */
function parsedPayloadOf(task: Extract<TaskMessage, { kind: 'generate' }>): ParsedPayload {
  const parsed = task.payloadText === null ? parsePayload(task.payload) : parsePayloadText(task.payloadText);
  task.payload = undefined;
  task.payloadText = null;
  return parsed;
}

/** `jsonData` text within the nesting and size limits, parsed: the words of a refusal are the engine's. */
function checkedJson(text: string): unknown {
  checkJsonLimits(text);
  return parseJsonText(text);
}

/** The facts of a payload, or the schema's refusal with the templates it still names (PayloadReading). */
function readPayload(
  task: Extract<TaskMessage, { kind: 'read-payload' }>,
): Extract<ResultMessage, { kind: 'read-payload' }>['result'] {
  const value = task.payloadText === null ? task.payload : checkedJson(task.payloadText);
  try {
    return { accepted: true, facts: payloadFacts(parsePayload(value)) };
  } catch (error) {
    if (!(error instanceof EngineError) || error.code !== 'INVALID_PAYLOAD') throw error;
    const outline = payloadOutline(value);
    return {
      accepted: false,
      refusal: serialize(error),
      outlineTemplates: outline && outline.templates.map((t) => t.source),
    };
  }
}

function serialize(error: unknown): SerializedError {
  if (error instanceof EngineError) {
    return {
      engine: true,
      code: error.code,
      message: error.reason,
      path: error.path,
      stack: error.stack ?? null,
    };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  return { engine: false, code: null, message: plain.message, path: null, stack: plain.stack ?? null };
}

/** Posts how far the deck is, at most every PROGRESS_INTERVAL_MS, and always for the last slide. */
function progressReporter(
  port: NonNullable<typeof parentPort>,
  id: number,
): (slidesDone: number, slidesTotal: number) => void {
  let last = 0;
  return (slidesDone, slidesTotal) => {
    const now = Date.now();
    if (slidesDone < slidesTotal && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    port.postMessage({ id, progress: { slidesDone, slidesTotal } } satisfies ProgressMessage);
  };
}

async function handle(task: TaskMessage): Promise<void> {
  const port = parentPort;
  if (!port) return;
  port.postMessage({ id: task.id, started: true } satisfies StartedMessage);
  try {
    if (task.kind === 'generate') {
      keepRoomInBudget();
      const parsed = parsedPayloadOf(task);
      const files = new Map(task.files);
      for (const [name, path] of task.filePaths) files.set(name, readFileSync(path));
      const imageLimits = task.imageLimits ?? DEFAULT_IMAGE_LIMITS;
      const images = await prepareImages(parsed.request, files, {
        limits: imageLimits,
        converter,
        unavailable: new Map(task.unavailable),
      });
      const input = {
        parsed,
        files,
        images,
        imageLimits,
        cache,
        fileHashes: new Map(task.fileHashes),
        maxSlides: task.maxSlides,
        onProgress: task.reportProgress ? progressReporter(port, task.id) : undefined,
      };
      const { output } = task;
      if (output) {
        const { result, bytes } = writingTo(
          output,
          (sink) => generate({ ...input, output: sink }),
          task.memoryBytes ?? 0,
        );
        const message: ResultMessage = {
          id: task.id,
          ok: true,
          kind: 'generate',
          result: bytes ? { ...result, bytes } : result,
        };
        port.postMessage(message, bytes ? transferList([bytes]) : []);
      } else {
        const result = generate(input);
        const message: ResultMessage = { id: task.id, ok: true, kind: 'generate', result };
        port.postMessage(message, transferList([result.bytes]));
      }
    } else if (task.kind === 'read-payload') {
      const message: ResultMessage = {
        id: task.id,
        ok: true,
        kind: 'read-payload',
        result: readPayload(task),
      };
      port.postMessage(message);
    } else if (task.kind === 'check') {
      checkPayload({
        payload: task.payloadText === null ? task.payload : checkedJson(task.payloadText),
        files: new Map(task.files),
        fileHashes: new Map(task.fileHashes),
        cache,
      });
      port.postMessage({ id: task.id, ok: true, kind: 'check' } satisfies ResultMessage);
    } else if (task.kind === 'render-copy') {
      const result = renderSafeCopy(task.deck, { maxPixels: task.maxPixels });
      const message: ResultMessage = { id: task.id, ok: true, kind: 'render-copy', result };
      port.postMessage(message, transferList([result.bytes, ...result.fonts.map((font) => font.bytes)]));
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

parentPort?.on('message', (task: TaskMessage) => void handle(task));

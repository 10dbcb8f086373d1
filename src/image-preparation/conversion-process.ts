/**
 * Image conversion in a process of its own (conversion-child.ts), where a budget can really stop it. libvips
 * works on native threads that neither terminating a worker thread nor V8's heap limit reach: a conversion run
 * in the server went on after its generation was stopped, filled libuv's thread pool (so the server's own file
 * and DNS work waited: /healthz stopped answering) and grew the process by gigabytes. A process can be killed.
 *
 * A generation thread starts one on its first picture that needs converting and keeps it for the next ones. A
 * conversion that runs past its time limit or past its memory limit (resident size, read from /proc) has its
 * process killed, and its picture is refused with a sentence saying which limit; the next conversion starts a
 * new process. The process runs at a lower priority, so the server's event loop and its other generations come
 * first on a busy machine.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PreparedImage } from '../engine/index.js';
import type { ConversionReply, ConversionRequest } from './conversion-protocol.js';

export interface ConversionLimits {
  /** Longest one image may take to convert, in milliseconds. */
  timeoutMs: number;
  /** Most memory (resident) the conversion process may hold, in MB. */
  memoryMb: number;
}

/** 30 s: a 50-megapixel TIFF converts in a few seconds on one core; a generation's budget is 120 s. */
export const CONVERSION_TIMEOUT_MS = 30_000;
/** The process' own baseline (Node and libvips loaded), above the image budget. */
const PROCESS_BASELINE_MB = 128;
/** A `nice` of 5: the server's event loop and generation threads come first on a busy machine, without starving conversions. */
const LOWER_PRIORITY = 5;
const MEMORY_POLL_MS = 50;

/** The memory limit for a generation memory budget (DECKFORGE_GENERATION_MEMORY_MB, default 512). */
export function conversionMemoryMb(generationBudgetMb: number | undefined): number {
  return (generationBudgetMb ?? 512) + PROCESS_BASELINE_MB;
}

export class ConversionProcess {
  private child: ChildProcess | null = null;
  private nextId = 1;

  constructor(
    private readonly limits: ConversionLimits,
    /** Told the process id when one starts and null when it ends, so the pool can kill it with the thread. */
    private readonly onProcess: (pid: number | null) => void = () => {},
  ) {}

  /** The converted image, or a refusal naming `request.label`. Rejects on a fault of the process itself. */
  convert(request: Omit<ConversionRequest, 'id'>): Promise<PreparedImage | { refused: string }> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      /** Set when the process takes the image. */
      let timer: NodeJS.Timeout | undefined;
      const stop = (): void => {
        clearTimeout(timer);
        clearInterval(memoryWatch);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const refuse = (reason: string): void => {
        stop();
        this.kill(child);
        resolve({ refused: `${request.label} ${reason}` });
      };
      const onMessage = (reply: ConversionReply): void => {
        if (reply.id !== id) return;
        if ('started' in reply) {
          timer ??= setTimeout(
            () => refuse(`took longer than ${this.limits.timeoutMs / 1000} s to convert and was stopped`),
            this.limits.timeoutMs,
          );
          return;
        }
        stop();
        if ('image' in reply) resolve(reply.image);
        else if ('refused' in reply) resolve({ refused: reply.refused });
        else reject(new Error(`image conversion failed: ${reply.failed}`));
      };
      const onExit = (code: number | null, signal: string | null): void => {
        stop();
        this.forget(child);
        // Killed from outside (the kernel's OOM killer) or crashed in native code: the image's doing.
        resolve({
          refused: `${request.label} could not be converted (the converter stopped: ${signal ?? code})`,
        });
      };
      const memoryWatch = setInterval(() => {
        if (residentMb(child.pid) > this.limits.memoryMb)
          refuse(`needed more than ${this.limits.memoryMb} MB of memory to convert and was stopped`);
      }, MEMORY_POLL_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ ...request, id } satisfies ConversionRequest);
    });
  }

  /** Ends the process (if any) now. */
  close(): void {
    if (this.child) this.kill(this.child);
  }

  private start(): ChildProcess {
    const { entry, execArgv } = childEntry();
    const child = fork(entry, [], {
      execArgv,
      serialization: 'advanced', // Uint8Array as bytes, not as a JSON object of indices
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child = child;
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, LOWER_PRIORITY);
      } catch {
        // Not allowed on this system: the process runs at normal priority, still bounded by its limits.
      }
      this.onProcess(child.pid);
    }
    child.once('exit', () => this.forget(child));
    // An error event (it could not start) is followed by exit, which refuses the image.
    child.on('error', () => {});
    return child;
  }

  private kill(child: ChildProcess): void {
    // SIGKILL: an exit() inside the process would wait for libvips' threads to finish their work.
    child.kill('SIGKILL');
    this.forget(child);
  }

  private forget(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    this.onProcess(null);
  }
}

/**
 * The child's entry: the built JavaScript in dist/image-preparation/, found from this module wherever it runs
 * (beside it, from the CLI's bundle in dist/cli/, from the generation threads' bundle in
 * dist/adapters/generation-threads/), or under the tests, the TypeScript source through tsx.
 */
function childEntry(): { entry: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
    return {
      entry: here.replace(/conversion-process\.ts$/, 'conversion-child.ts'),
      execArgv: ['--import', tsx],
    };
  }
  const places = ['../image-preparation/', '../../image-preparation/'].map((folder) =>
    fileURLToPath(new URL(`${folder}conversion-child.js`, import.meta.url)),
  );
  return { entry: places.find((place) => existsSync(place)) ?? places[0]!, execArgv: [] };
}

/** Resident memory of a process in MB from /proc (Linux); 0 where there is no /proc, or it has ended. */
function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / 2 ** 20;
  } catch {
    return 0;
  }
}

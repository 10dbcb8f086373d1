/**
 * One renderer of the pool: a long-lived LibreOffice (`soffice --headless --accept=pipe,…`, in a process group
 * of its own, with a fresh profile of its own) and the small Python bridge that drives it over UNO
 * (uno-bridge-script.ts), talking JSON lines on the bridge's stdin and stdout.
 *
 * It converts one deck at a time. A conversion past its budget or its memory ceiling, or withdrawn, kills the
 * renderer (LibreOffice cannot be interrupted half-way through a document); so does a fault of either process.
 * A dead renderer stays dead: the pool starts another in its place.
 *
 * Both processes start with an allow-listed environment and, where the system allows, inside a sandbox
 * (renderer-sandbox.ts); LibreOffice's profile carries the settings of profile-settings.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import {
  RenderCancelledError,
  RendererLostError,
  RenderFailedError,
  RenderTimeoutError,
} from '../../service/ports/renderer.js';
import { writeProfileSettings } from './profile-settings.js';
import type { RenderTools } from './render-tools.js';
import { rendererEnvironment, sandboxed, type Isolation } from './renderer-sandbox.js';

export interface RendererProcessOptions {
  tools: RenderTools;
  /** Path of the bridge script (the pool writes it once). */
  bridgeScript: string;
  /** A folder of this renderer alone: its LibreOffice profile goes there, and it is removed at the end. */
  dir: string;
  /** The pool's folder (dir lies in it): hidden from a sandboxed renderer but for the bridge script. */
  poolDir: string;
  /** The sandbox to start in (null, or a reason: none). */
  isolation: Isolation | null;
  /** PATH for the renderer's processes. */
  searchPath: string;
  /** LibreOffice's resident memory is checked during a conversion too: past this many MB, it is stopped. */
  memoryCeilingMb: number;
  /** Unique on this machine: LibreOffice's pipe is named after it. */
  name: string;
  /** How long soffice may take to accept its first connection. */
  startupTimeoutMs: number;
}

interface BridgeReply {
  id?: number;
  ready?: boolean;
  done?: boolean;
  failed?: string;
  lost?: boolean;
}

const EXIT_POLL_MS = 20;
/** Beyond the bridge's own wait for soffice: a bridge that hangs itself is given up on too. */
const START_GRACE_MS = 10_000;
const EXIT_WAIT_MS = 10_000;
const STDERR_TAIL = 2000;
/** How often LibreOffice's resident memory is read while it converts. */
const MEMORY_POLL_MS = 100;

export class RendererProcess {
  /** Resolves once LibreOffice accepts conversions; rejects (with a sentence) when it could not start. */
  readonly ready: Promise<void>;
  /** Conversions this process finished, successful or not. */
  conversions = 0;
  private readonly office: ChildProcess;
  private readonly bridge: ChildProcess;
  private dead: string | null = null;
  /** LibreOffice's processes when it was killed: exited() waits for each of them. */
  private killedPids: number[] = [];
  private markReady: () => void = () => {};
  private failStart: (error: Error) => void = () => {};
  private current: { id: number; settle: (error: Error | null) => void } | null = null;
  private nextId = 1;
  private stderr = '';
  private readonly deathListeners: (() => void)[] = [];

  constructor(private readonly options: RendererProcessOptions) {
    this.ready = new Promise<void>((resolve, reject) => {
      const gaveUp = setTimeout(
        () => this.die(`it did not accept conversions within ${options.startupTimeoutMs / 1000} s`),
        options.startupTimeoutMs + START_GRACE_MS,
      );
      this.markReady = () => {
        clearTimeout(gaveUp);
        resolve();
      };
      this.failStart = (error) => {
        clearTimeout(gaveUp);
        reject(error);
      };
    });
    // Nobody may be listening yet: a start that fails is reported through render(), not as an unhandled rejection.
    this.ready.catch(() => {});
    const profile = join(options.dir, 'profile');
    mkdirSync(profile, { recursive: true });
    mkdirSync(join(options.dir, 'tmp'), { recursive: true });
    writeProfileSettings(profile);
    const isolated = options.isolation !== null && 'bwrap' in options.isolation;
    const env = rendererEnvironment(options.searchPath, options.dir, isolated);
    const folders = { dir: options.dir, poolDir: options.poolDir, readOnly: [options.bridgeScript] };
    const office = sandboxed(options.isolation, folders, options.tools.soffice, [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      '--nolockcheck',
      `--accept=pipe,name=${options.name};urp;`,
    ]);
    // Its own process group: soffice is a script that starts oosplash, which starts soffice.bin.
    this.office = spawn(office.command, office.args, {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    this.office.stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    this.office.on('error', (error) => this.die(`LibreOffice could not be started: ${error.message}`));
    this.office.on('exit', (code, signal) => this.die(`LibreOffice stopped (${signal ?? `exit ${code}`})`));
    // Outside a sandbox the bridge kills LibreOffice's process group when Node goes; inside one, bwrap's
    // --die-with-parent does (the bridge's process namespace has no such group): 0 says "none".
    const bridge = sandboxed(options.isolation, folders, options.tools.python, [
      options.bridgeScript,
      options.name,
      String(options.startupTimeoutMs / 1000),
      String(isolated ? 0 : (this.office.pid ?? 0)),
    ]);
    this.bridge = spawn(bridge.command, bridge.args, { stdio: ['pipe', 'pipe', 'pipe'], env });
    this.bridge.stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    this.bridge.on('error', (error) => this.die(`the UNO bridge could not be started: ${error.message}`));
    this.bridge.on('exit', (code, signal) =>
      this.die(`the UNO bridge stopped (${signal ?? `exit ${code}`})`),
    );
    // A write after the bridge died fails with EPIPE; the exit above already told everyone.
    this.bridge.stdin?.on('error', () => {});
    if (this.bridge.stdout) {
      createInterface({ input: this.bridge.stdout }).on('line', (line) => this.onLine(line));
    }
  }

  /** The renderer's own folder: the one it may write (its profile, the deck's copy, the PDF). */
  get dir(): string {
    return this.options.dir;
  }

  get alive(): boolean {
    return this.dead === null;
  }

  /** Called once when this renderer dies, by whatever cause (also by kill()). */
  onDeath(listener: () => void): void {
    if (this.dead !== null) listener();
    else this.deathListeners.push(listener);
  }

  /**
   * Exports `input` to the PDF `output`. Rejects with RenderTimeoutError after `timeoutMs`, RenderCancelledError
   * when `signal` aborts (both kill this renderer), and RenderFailedError when LibreOffice could not do it.
   */
  convert(input: string, output: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.dead !== null) return Promise.reject(new RenderFailedError(this.dead));
    if (this.current) return Promise.reject(new Error('a renderer process converts one deck at a time'));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      let outcome: Error | null = null;
      const timer = setTimeout(() => {
        outcome = new RenderTimeoutError(timeoutMs);
        this.kill();
      }, timeoutMs);
      const onAbort = (): void => {
        outcome = new RenderCancelledError('the render was withdrawn while LibreOffice was converting');
        this.kill();
      };
      // The ceiling holds during the conversion, not only after it: a deck that makes LibreOffice grow past
      // it is stopped there.
      const watch = setInterval(() => {
        const rss = this.residentMb();
        if (rss <= this.options.memoryCeilingMb) return;
        outcome = new RenderFailedError(
          `the deck took LibreOffice past its memory ceiling of ${this.options.memoryCeilingMb} MB ` +
            `(${Math.round(rss)} MB) and was stopped: make its pictures or slides smaller`,
        );
        this.kill();
      }, MEMORY_POLL_MS);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.current = {
        id,
        settle: (error) => {
          clearTimeout(timer);
          clearInterval(watch);
          signal?.removeEventListener('abort', onAbort);
          this.current = null;
          this.conversions += 1;
          if (outcome ?? error) reject(outcome ?? error);
          else resolve();
        },
      };
      if (signal?.aborted) onAbort();
      else this.bridge.stdin?.write(`${JSON.stringify({ id, input, output })}\n`);
    });
  }

  /** Resident memory of LibreOffice (soffice.bin and whatever it started) in MB, from /proc. */
  residentMb(): number {
    let kb = 0;
    for (const pid of this.officePids()) {
      try {
        const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        kb += Number(match?.[1] ?? 0);
      } catch {
        // Ended between the listing and the read.
      }
    }
    return kb / 1024;
  }

  /** Every process of this renderer that still runs: LibreOffice's and the bridge's (with their sandboxes). */
  pids(): number[] {
    return [...this.officePids(), ...processTree(this.bridge.pid)];
  }

  /** Kills both processes now (idempotent); `exited()` says when they are gone. */
  kill(): void {
    this.die('the renderer was stopped');
  }

  /** Resolves once no process of this renderer runs and its folder is removed (after kill() or a death). */
  async exited(): Promise<void> {
    const deadline = Date.now() + EXIT_WAIT_MS;
    while (Date.now() < deadline && (this.killedPids.some(running) || this.bridgeRunning())) {
      await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS));
    }
    rmSync(this.options.dir, { recursive: true, force: true });
    // LibreOffice leaves its pipe's socket behind when it is killed.
    rmSync(join(tmpdir(), `OSL_PIPE_${userInfo().uid}_${this.options.name}`), { force: true });
    if (tmpdir() !== '/tmp') rmSync(`/tmp/OSL_PIPE_${userInfo().uid}_${this.options.name}`, { force: true });
  }

  /** Last lines LibreOffice and the bridge wrote on stderr, for a log line. */
  get diagnostics(): string {
    return this.stderr.trim();
  }

  private onLine(line: string): void {
    let reply: BridgeReply;
    try {
      reply = JSON.parse(line) as BridgeReply;
    } catch {
      return; // Not ours: something the UNO runtime printed.
    }
    if (reply.ready) {
      this.markReady();
      return;
    }
    if (reply.id === undefined) {
      if (reply.failed) this.die(reply.failed);
      return;
    }
    if (!this.current || this.current.id !== reply.id) return;
    if (reply.lost) {
      this.die(`LibreOffice stopped while converting the deck (${reply.failed ?? 'connection lost'})`);
      return;
    }
    this.current.settle(
      reply.failed
        ? new RenderFailedError(`LibreOffice could not convert the deck: ${userFacing(reply.failed)}`)
        : null,
    );
  }

  private die(reason: string): void {
    if (this.dead !== null) return;
    this.dead = reason;
    this.killedPids = this.officePids();
    if (this.office.pid !== undefined) {
      try {
        process.kill(-this.office.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    }
    this.bridge.kill('SIGKILL');
    this.failStart(new RenderFailedError(`LibreOffice did not start: ${reason}`));
    this.current?.settle(new RendererLostError(`${reason}; the renderer was replaced`));
    for (const listener of this.deathListeners.splice(0)) listener();
  }

  private keepStderr(chunk: Buffer): void {
    this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_TAIL);
  }

  private officePids(): number[] {
    return processTree(this.office.pid);
  }

  private bridgeRunning(): boolean {
    return this.bridge.pid !== undefined && this.bridge.exitCode === null && this.bridge.signalCode === null;
  }
}

/**
 * LibreOffice's message without what only the server should see: the deck's path on this machine and the
 * source file the exception was raised in. An unreadable file says so in words.
 */
function userFacing(message: string): string {
  if (/type detection failed|could not open the file as a presentation/.test(message))
    return 'the file is not a presentation LibreOffice can open';
  return message
    .replace(/file:\/\/\/[^\s>"']*/g, 'the deck')
    .replace(/\s+at \.?\/?[\w/.-]+\.(?:cxx|hxx|cpp):\d+/g, '')
    .trim();
}

/** `root` and every process under it that still runs. */
function processTree(root: number | undefined): number[] {
  if (root === undefined) return [];
  const found: number[] = [];
  const visit = (pid: number): void => {
    if (!running(pid)) return;
    found.push(pid);
    for (const child of childrenOf(pid)) visit(child);
  };
  visit(root);
  return found;
}

/** Children of every thread of `pid` (oosplash starts soffice.bin from a thread other than its first). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/** Whether `pid` runs: a zombie (ended, not yet reaped by a parent that may never reap it) does not. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ...": the command may hold spaces and parentheses, the state follows the last ")".
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * One renderer of the pool: the small Python bridge (uno-bridge-script.ts), which starts a long-lived LibreOffice
 * (`oosplash --headless --accept=pipe,…`, with a fresh profile of its own) in its own process group and drives it
 * over UNO, talking JSON lines on its stdin and stdout. Both run inside one sandbox where the system gives one
 * (renderer-sandbox.ts): the bridge and LibreOffice share its /tmp, where LibreOffice's pipe is.
 *
 * It converts one deck at a time, from its work folder (which holds that deck and its PDF, nothing else). A
 * conversion past its budget or its memory ceiling, or withdrawn, kills the renderer (LibreOffice cannot be
 * interrupted half-way through a document); so does a fault of either process. A dead renderer stays dead:
 * the pool starts another in its place.
 *
 * LibreOffice's profile carries the settings of profile-settings.ts. A one-off renderer, started for one deck that
 * embeds fonts, also gets those fonts in a folder of its own (fontconfig-file.ts), and is thrown away after it.
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
import type { RendererFont } from '../../engine/index.js';
import { writeFontFolder } from './fontconfig-file.js';
import { writeProfileSettings } from './profile-settings.js';
import type { RenderTools } from './render-tools.js';
import { INSIDE, rendererEnvironment, sandboxArguments, type Isolation } from './renderer-sandbox.js';

export interface RendererProcessOptions {
  tools: RenderTools;
  /** LibreOffice's launcher (renderer-view.ts, officeInstallation): oosplash, or soffice where none was found. */
  office: string;
  /** Path of the bridge script (the pool writes it once). */
  bridgeScript: string;
  /** A folder of this renderer alone (its profile, work and tmp folders go there); removed at the end. */
  dir: string;
  /** The sandbox to start in; null, or a reason: none (DECKFORGE_RENDER_ISOLATION=unsandboxed-accept-risk). */
  isolation: Isolation | null;
  /** PATH for the renderer's processes. */
  searchPath: string;
  /** LibreOffice's resident memory is checked during a conversion too: past this many MB, it is stopped. */
  memoryCeilingMb: number;
  /** Unique on this machine: LibreOffice's pipe is named after it. */
  name: string;
  /** How long soffice may take to accept its first connection. */
  startupTimeoutMs: number;
  /** A one-off renderer's: the fonts its one deck embeds, which its LibreOffice alone draws (fontconfig-file.ts). */
  fonts?: readonly RendererFont[];
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
  /** The work folder on the server's disk: the deck's copy goes in, its PDF comes out, nothing else is kept. */
  readonly workDir: string;
  /** The sandbox (or, without one, the bridge), the root of every process of this renderer. */
  private readonly bridge: ChildProcess;
  /** Where the bridge finds the work folder: INSIDE.work in a sandbox, workDir without. */
  private readonly workInside: string;
  private dead: string | null = null;
  /** The renderer's processes when it was killed: exited() waits for each of them. */
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
    const fonts = options.fonts !== undefined && options.fonts.length > 0 ? options.fonts : null;
    const folders = {
      profile: join(options.dir, 'profile'),
      work: join(options.dir, 'work'),
      tmp: join(options.dir, 'tmp'),
      bridge: options.bridgeScript,
      ...(fonts ? { fonts: join(options.dir, 'fonts') } : {}),
    };
    for (const folder of [folders.profile, folders.work, folders.tmp]) mkdirSync(folder, { recursive: true });
    writeProfileSettings(folders.profile);
    this.workDir = folders.work;
    const sandbox = options.isolation !== null && 'bwrap' in options.isolation ? options.isolation : null;
    const inside = sandbox ? { profile: INSIDE.profile, tmp: '/tmp', bridge: INSIDE.bridge } : folders;
    this.workInside = sandbox ? INSIDE.work : folders.work;
    const fontconfigFile =
      fonts && folders.fonts !== undefined
        ? writeFontFolder(folders.fonts, fonts, {
            inside: sandbox ? INSIDE.fonts : folders.fonts,
            cache: join(inside.tmp, 'fontconfig'),
          })
        : undefined;
    const env = rendererEnvironment(options.searchPath, { ...inside, fontconfigFile });
    const bridgeArgs = [
      inside.bridge,
      options.name,
      String(options.startupTimeoutMs / 1000),
      options.office,
      `-env:UserInstallation=${pathToFileURL(inside.profile).href}`,
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      '--nolockcheck',
    ];
    const command = sandbox
      ? {
          command: sandbox.bwrap,
          args: sandboxArguments(sandbox.view, folders, options.tools.python, bridgeArgs),
        }
      : { command: options.tools.python, args: bridgeArgs };
    // Its own process group (and session): die() ends the sandbox, or the bridge and LibreOffice, in one kill.
    this.bridge = spawn(command.command, command.args, {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
    });
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

  get alive(): boolean {
    return this.dead === null;
  }

  /** Called once when this renderer dies, by whatever cause (also by kill()). */
  onDeath(listener: () => void): void {
    if (this.dead !== null) listener();
    else this.deathListeners.push(listener);
  }

  /**
   * Exports the deck `input` of the work folder to the PDF `output` beside it (file names). Rejects with
   * RenderTimeoutError after `timeoutMs`, RenderCancelledError when `signal` aborts (both kill this renderer),
   * and RenderFailedError when LibreOffice could not do it.
   */
  convert(input: string, output: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const paths = { input: join(this.workInside, input), output: join(this.workInside, output) };
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
      else this.bridge.stdin?.write(`${JSON.stringify({ id, ...paths })}\n`);
    });
  }

  /** Resident memory of LibreOffice (soffice.bin and whatever it started) and its bridge in MB, from /proc. */
  residentMb(): number {
    let kb = 0;
    for (const pid of this.pids()) {
      try {
        const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        kb += Number(match?.[1] ?? 0);
      } catch {
        // Ended between the listing and the read.
      }
    }
    return kb / 1024;
  }

  /** Every process of this renderer that still runs: the sandbox's, the bridge's and LibreOffice's. */
  pids(): number[] {
    return processTree(this.bridge.pid);
  }

  /** Kills every process of this renderer now (idempotent); `exited()` says when they are gone. */
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
    this.killedPids = this.pids();
    if (this.bridge.pid !== undefined) {
      try {
        process.kill(-this.bridge.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    }
    this.failStart(new RenderFailedError(`LibreOffice did not start: ${reason}`));
    this.current?.settle(new RendererLostError(`${reason}; the renderer was replaced`));
    for (const listener of this.deathListeners.splice(0)) listener();
  }

  private keepStderr(chunk: Buffer): void {
    this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_TAIL);
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

/**
 * What the scale-out benchmarks (jobs.ts, soak.ts) share: command-line options, a bearer token, job submission
 * and a job watcher that polls gently, the embedded default server as a process, and figures (percentiles).
 * Plain fetch against the HTTP interface (docs/http-api.md), as any client would use it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_PATH, REPO_ROOT } from '../../test/support/servers/http-harness-paths.js';

const run = promisify(execFile);

export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

export const numberOption = (name: string, fallback: number): number =>
  Number(option(name, String(fallback)));

export interface Account {
  email: string;
  password: string;
  key: string;
}

export async function token(base: string, account: Account): Promise<string> {
  const body = new URLSearchParams({ username: account.email, password: account.password, key: account.key });
  const response = await fetch(`${base}/v1.0/token/create`, { method: 'POST', body });
  const json = (await response.json()) as { Result?: { Access_Token?: string } };
  const value = json.Result?.Access_Token;
  if (response.status !== 200 || !value) throw new Error(`token create answered ${response.status}`);
  return value;
}

export const bearer = (value: string): Record<string, string> => ({ authorization: `Bearer ${value}` });

/** Submits a job; the 202's job id, or an error carrying the status and body. */
export async function submitJob(base: string, bearerToken: string, body: FormData): Promise<string> {
  const response = await fetch(`${base}/v2.0/generator/create-async`, {
    method: 'POST',
    body,
    headers: bearer(bearerToken),
  });
  const text = await response.text();
  if (response.status !== 202)
    throw new Error(`create-async answered ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { job_id: string }).job_id;
}

export type JobState = 'QUEUED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';

export interface WatchedJob {
  id: string;
  /** The API node (or balancer) asked for its status. */
  base: string;
  /** performance.now() when the submission was sent. */
  submittedAt: number;
  slides: number;
  state: JobState | 'UNKNOWN';
  /** performance.now() of the first poll that saw it final. */
  finishedAt: number | null;
  error: string | null;
  lastPolledAt: number;
}

/**
 * Polls job statuses until every job is final, without flooding the servers: only the `window` oldest
 * unfinished jobs are watched (one account's jobs are claimed oldest first, so those are the ones that can
 * finish next), each at most once per `intervalMs`, `concurrency` status requests at a time. A job's time to
 * SUCCEEDED is therefore known to within about `intervalMs`. Jobs may be added while it runs (the soak does).
 */
export class JobWatcher {
  readonly jobs: WatchedJob[] = [];
  private readonly pending: WatchedJob[] = [];
  pollErrors = 0;

  constructor(
    private readonly bearerToken: string,
    private readonly options = { window: 16, intervalMs: 250, concurrency: 4 },
  ) {}

  add(job: Omit<WatchedJob, 'state' | 'finishedAt' | 'error' | 'lastPolledAt'>): WatchedJob {
    const watched: WatchedJob = { ...job, state: 'QUEUED', finishedAt: null, error: null, lastPolledAt: 0 };
    this.jobs.push(watched);
    this.pending.push(watched);
    return watched;
  }

  get unfinished(): number {
    return this.pending.length;
  }

  /** One pass over the window: polls the jobs that are due; resolves when they have answered. */
  async pass(): Promise<void> {
    const now = performance.now();
    const due = this.pending
      .slice(0, this.options.window)
      .filter((job) => now - job.lastPolledAt >= this.options.intervalMs);
    let next = 0;
    const pollOne = async (): Promise<void> => {
      for (let job = due[next++]; job; job = due[next++]) await this.poll(job);
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, pollOne));
    for (let i = this.pending.length - 1; i >= 0; i--) {
      if (this.pending[i]!.finishedAt !== null) this.pending.splice(i, 1);
    }
  }

  /** Passes until every job is final or `deadline` (performance.now()) passes; true when all are final. */
  async untilDone(deadline = Infinity): Promise<boolean> {
    while (this.pending.length > 0 && performance.now() < deadline) {
      const started = performance.now();
      await this.pass();
      const rest = this.options.intervalMs / 2 - (performance.now() - started);
      if (rest > 0) await sleep(rest);
    }
    return this.pending.length === 0;
  }

  private async poll(job: WatchedJob): Promise<void> {
    job.lastPolledAt = performance.now();
    try {
      const response = await fetch(`${job.base}/v2.0/jobs/${encodeURIComponent(job.id)}/status`, {
        headers: bearer(this.bearerToken),
      });
      const body = (await response.json()) as { status?: JobState; error_message?: string | null };
      const seenAt = performance.now();
      if (response.status !== 200 || !body.status) {
        this.pollErrors += 1;
        job.error = `status answered ${response.status}`;
        return;
      }
      job.state = body.status;
      if (body.status === 'SUCCEEDED' || body.status === 'FAILED') {
        job.finishedAt = seenAt;
        job.error = body.error_message ?? null;
      }
    } catch (error) {
      this.pollErrors += 1;
      job.error = String(error);
    }
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile of `values` (not necessarily sorted); NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : '—');

/** A table of rows (first row the header), columns padded; numbers right-aligned by the caller's strings. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  return rows
    .map((row, r) =>
      [
        row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
        ...(r === 0 ? ['\n' + widths.map((w) => '-'.repeat(w)).join('  ')] : []),
      ].join(''),
    )
    .join('\n');
}

export interface EmbeddedServer {
  url: string;
  accounts: Account[];
  process: ChildProcess;
  rssKb(): number;
  stop(): Promise<void>;
}

/**
 * The embedded default as a user runs it: one `deckforge serve` (SQLite, in-process queue, files on local disk)
 * on a fresh data directory with default settings. The account is made first with `deckforge accounts create`
 * on the same directory (`accounts` of them, on `plan`) before the server starts.
 */
export async function startEmbedded(
  plan: string,
  { accounts = 1, env = {} }: { accounts?: number; env?: Record<string, string> } = {},
): Promise<EmbeddedServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deckforge-bench-embedded-'));
  const childEnv = {
    ...process.env,
    DECKFORGE_DATA_DIR: dataDir,
    DECKFORGE_LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    ...env,
  };
  const created: Account[] = [];
  for (let i = 1; i <= accounts; i++) {
    const { stdout } = await run(
      process.execPath,
      [CLI_PATH, 'accounts', 'create', '--email', `bench-${i}@embedded.test`, '--plan', plan, '--json'],
      { cwd: REPO_ROOT, env: childEnv },
    );
    const { email, password, key } = JSON.parse(stdout) as Account;
    created.push({ email, password, key });
  }
  const child = spawn(process.execPath, [CLI_PATH, 'serve'], {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Deckforge is listening on (http:\/\/\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before it was ready:\n${output}`));
    });
  });
  return {
    url,
    accounts: created,
    process: child,
    rssKb: () => rssKbOf(child.pid!),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in KiB, from /proc (as ClusterProcess.rssKb does). */
export function rssKbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
}

/** The queue's own cost per job: bench/queue/overhead.js run as it is, its per-job totals read from its output. */
export async function queueOverhead(
  jobs: number,
): Promise<{ sqliteMs: number; bullmqMs: number; output: string }> {
  const { stdout } = await run(process.execPath, ['bench/queue/overhead.js', '--jobs', String(jobs)], {
    cwd: REPO_ROOT,
    env: process.env,
  });
  const total = (name: string): number =>
    Number(new RegExp(`${name}.*total ([\\d.]+) ms/job`).exec(stdout)?.[1] ?? NaN);
  return { sqliteMs: total('SQLite'), bullmqMs: total('BullMQ'), output: stdout.trim() };
}

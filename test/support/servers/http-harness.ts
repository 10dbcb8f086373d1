/**
 * Starts the real thing for HTTP tests: configuration, the composition root's runtime (SQLite file in a fresh
 * temporary data directory, worker pool, job runner) and the Fastify server on 127.0.0.1:0. Accounts are made
 * through the runtime's account administration (what `deckforge accounts create` uses). A test clock lets link
 * and job expiry be reached without waiting.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createRuntime, openAccountAdmin } from '../../../src/composition/index.js';
import { configWith, parsePlanCatalog, type Config, type Plan } from '../../../src/config/index.js';
import { createWebServer } from '../../../src/composition/create-web-server.js';
import type { HttpServer } from '../../../src/http/server.js';
import type { Clock, PasswordHasher } from '../../../src/service/ports/index.js';
import { testPasswordHasher } from './test-password-hasher.js';
import { expect } from 'vitest';

type Runtime = Awaited<ReturnType<typeof createRuntime>>;

export interface Credentials {
  email: string;
  password: string;
  key: string;
}

export interface RunningServer {
  base: string;
  config: Readonly<Config>;
  dataDir: string;
  /** Every log line the server wrote (JSON, one per entry). */
  logs: string[];
  server: HttpServer;
  runtime: Runtime;
  clock: TestClock;
  /** Creates an account in this server's database. */
  createAccount(options?: { plan?: string }): Promise<Credentials>;
  /** Creates an account and returns it with a fresh bearer token. */
  signUp(options?: { plan?: string }): Promise<Credentials & { token: string }>;
  /** Stops server and runtime; removes the data directory unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  plans?: Plan[];
  overrides?: Parameters<typeof configWith>[0];
  /** The cheap test hasher unless given (support/servers/test-password-hasher.ts). */
  hasher?: PasswordHasher;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'deckforge-http-'));
}

/** The environment a CLI child process needs to work on `dataDir` with the given plans. */
export function cliEnv(dataDir: string, plans?: Plan[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DECKFORGE_DATA_DIR: dataDir, DECKFORGE_LOG_LEVEL: 'warn' };
  if (plans) {
    const path = join(dataDir, 'plans.json');
    writeFileSync(path, JSON.stringify({ plans }));
    env.DECKFORGE_PLANS = path;
  }
  return env;
}

/** Creates an account directly in `dataDir`'s database, as `deckforge accounts create` does. */
export async function createAccountIn(config: Readonly<Config>, plan?: string): Promise<Credentials> {
  const { admin, close } = await openAccountAdmin(config, { hasher: testPasswordHasher });
  try {
    return await newAccount(admin, plan);
  } finally {
    await close();
  }
}

async function newAccount(admin: Runtime['admin'], plan?: string): Promise<Credentials> {
  const email = `user-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const created = await admin.create(plan === undefined ? { email } : { email, plan });
  return { email: created.email, password: created.password, key: created.key };
}

/** Wall-clock time plus an offset the test can move forward, and stop while it checks a short window. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  now(): Date {
    return new Date((this.frozenAt ?? Date.now()) + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  /**
   * Stops the clock until `thaw`: a test about a one-second window must not depend on how long a busy machine
   * takes to hash a password between two requests.
   */
  freeze(): void {
    this.frozenAt ??= Date.now();
  }
  /** Starts the clock again from where it stopped (it never goes back). */
  thaw(): void {
    if (this.frozenAt === null) return;
    this.offsetMs -= Date.now() - this.frozenAt;
    this.frozenAt = null;
  }
}

export async function issueToken(base: string, credentials: Credentials): Promise<string> {
  const body = new URLSearchParams({
    username: credentials.email,
    password: credentials.password,
    key: credentials.key,
  });
  const response = await fetch(`${base}/v1.0/token/create`, { method: 'POST', body });
  const json = (await response.json()) as { Result: { Access_Token?: string } };
  if (response.status !== 200 || !json.Result.Access_Token) {
    throw new Error(`token create answered ${response.status}: ${JSON.stringify(json)}`);
  }
  return json.Result.Access_Token;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const config = configWith({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logLevel: 'info',
    ...(options.plans ? { plans: parsePlanCatalog({ plans: options.plans }, 'test') } : {}),
    ...options.overrides,
  });
  const logs: string[] = [];
  const logStream = { write: (line: string) => void logs.push(line) };
  const clock = new TestClock();
  const runtime = await createRuntime(config, {
    logger: createLogger(config, logStream),
    clock,
    hasher: options.hasher ?? testPasswordHasher,
    sweepEveryMs: 200,
  });
  const server = await createWebServer(runtime.service, config, { logStream });
  const base = await server.listen();
  let closed = false;
  const running: RunningServer = {
    base,
    config,
    dataDir,
    logs,
    server,
    runtime,
    clock,
    createAccount: (accountOptions = {}) => newAccount(runtime.admin, accountOptions.plan),
    async signUp(accountOptions = {}) {
      const credentials = await running.createAccount(accountOptions);
      return { ...credentials, token: await issueToken(base, credentials) };
    },
    async close(closeOptions = {}) {
      if (closed) return;
      closed = true;
      await server.close();
      await runtime.close();
      if (!closeOptions.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return running;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** An error answer in the interface's shape B (`statusCode`, `message`, `detail`) with this status. */
export async function expectShapeB(
  response: Response,
  statusCode: number,
  message: string,
  label?: string,
): Promise<void> {
  expect(response.status, label).toBe(statusCode);
  expect(await response.json()).toEqual({ statusCode, message, detail: expect.any(String) });
}

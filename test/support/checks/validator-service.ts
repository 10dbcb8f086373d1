/**
 * vitest globalSetup: one validator process for the test files of this vitest run that each run in a process of
 * their own (the integration and timing files, vitest.config.ts). The validator (.NET on WebAssembly) takes
 * seconds of CPU to boot; booted in every such file that validates a deck (over 50 of them), that was minutes of
 * every run. Those files send their packages to it over a Unix socket (validator.ts reads the socket's path from
 * DECKFORGE_VALIDATOR_SOCKET); the unit files, which share worker processes, keep a validator each.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server of this vitest process: each project runs the global setup, all in one process. */
const SERVER = Symbol.for('deckforge.validator-server');
const shared = globalThis as { [SERVER]?: Promise<ValidatorServer> };

export async function setup(): Promise<() => void> {
  shared[SERVER] ??= startValidatorServer();
  const server = await shared[SERVER];
  process.env.DECKFORGE_VALIDATOR_SOCKET = server.socket;
  return server.stop;
}

export interface ValidatorServer {
  socket: string;
  stop(): void;
}

/** Starts validator-server.ts on a socket of its own; resolves once it listens. */
export async function startValidatorServer(): Promise<ValidatorServer> {
  const folder = mkdtempSync(join(tmpdir(), 'deckforge-validator-'));
  const socket = join(folder, 'validator.sock');
  const { DECKFORGE_VALIDATOR_SOCKET: _, ...env } = process.env;
  const child = fork(fileURLToPath(new URL('./validator-server.ts', import.meta.url)), [socket], {
    execArgv: ['--import', 'tsx'],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code, signal) =>
      reject(new Error(`the shared validator process ended before listening (${signal ?? `exit ${code}`})`)),
    );
  });
  child.unref();
  child.channel?.unref();
  return {
    socket,
    stop: () => {
      child.kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

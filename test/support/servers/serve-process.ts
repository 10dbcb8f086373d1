/** `deckforge serve` as a child process (the built CLI), for the tests that kill and restart the server. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';
import { ensureBuilt } from './build-once.js';
import { cliEnv } from './http-harness.js';
import { CLI_PATH, REPO_ROOT } from './http-harness-paths.js';

export interface ServeProcess {
  base: string;
  child: ChildProcess;
  output: () => string;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
}

export async function startServe(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  args: string[] = [],
): Promise<ServeProcess> {
  await ensureBuilt();
  const port = await freePort();
  const env = {
    ...cliEnv(dataDir),
    PORT: String(port),
    HOST: '127.0.0.1',
    DECKFORGE_LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [CLI_PATH, 'serve', ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`deckforge serve exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`deckforge serve did not answer /healthz within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    child,
    output: () => output,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

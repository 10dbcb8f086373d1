/**
 * What the responsiveness timing tests measure with (docs/security.md, "Nothing of one request blocks the
 * others"): a request's time to its last byte, percentiles, and how much the machine's load alone delays an
 * idle process's event loop over the same seconds.
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';

/** The milliseconds `request` takes, its answer read to its end; it must be a 200. */
export async function timed(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return performance.now() - started;
}

export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Infinity;
}

export const median = (values: number[]): number => percentile(values, 0.5);
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The worst event-loop delay of a process that runs nothing, over the same seconds: what the machine's load alone
 * does to any event loop (a loaded 2-core machine delays an idle loop by a few hundred milliseconds at times).
 * Call it to start; call what it returns to stop and read the delay.
 */
export function idleProcessDelay(): () => Promise<number> {
  const script =
    "const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); h.enable();" +
    "process.stdin.on('end', () => { h.disable(); console.log(h.max / 1e6 - 10); }); process.stdin.resume();";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const ended = new Promise<number>((resolve) => child.on('exit', () => resolve(Number(out.trim()))));
  return () => {
    child.stdin.end();
    return ended;
  };
}

/**
 * `deckforge worker`: runs queued jobs without the HTTP API, from the configured queue: the data directory's
 * (beside `deckforge serve --no-worker` on the same machine) or the shared one (DECKFORGE_REDIS_URL).
 */
import { createRuntime, isStoreNotReady } from '../composition/index.js';
import { loadCommandConfig } from './command-config.js';
import type { CommandIo } from './command-io.js';
import { shutDownWithin } from './shutdown.js';
import { untilStopped, type StopOptions } from './stop-signal.js';

export async function runWorker(args: string[], io: CommandIo, options: StopOptions = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(
      'Usage: deckforge worker\n\nRuns queued jobs until SIGINT/SIGTERM: those of DECKFORGE_DATA_DIR, or of the ' +
        'shared queue when DECKFORGE_REDIS_URL is set.\n',
    );
    return 0;
  }
  const config = loadCommandConfig('worker', io);
  if (!config) return 2;
  let runtime;
  try {
    runtime = await createRuntime(config, { consumeJobs: true, jobConcurrency: config.workers });
  } catch (error) {
    if (!isStoreNotReady(error)) throw error;
    io.stderr(`deckforge worker: ${error.message}\n`);
    return 1;
  }
  const source = config.redis ? `the shared queue (prefix ${config.redis.prefix})` : config.dataDir;
  io.stdout(`Deckforge worker is running ${config.workers} generation thread(s) on ${source}\n`);
  await untilStopped(options);
  await shutDownWithin(config.shutdownTimeoutMs, {
    stop: () => runtime.close(),
    interrupt: () => runtime.interrupt(),
    onTimeout: () =>
      runtime.logger.warn(
        { timeoutMs: config.shutdownTimeoutMs },
        'shutdown timeout reached: running jobs are stopped and run again at the next start',
      ),
  });
  return 0;
}

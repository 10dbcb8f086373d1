/** `deckforge worker`: runs queued jobs from the data directory's queue, without the HTTP API. */
import { ConfigError, loadConfig } from '../config/index.js';
import { createRuntime } from '../composition/index.js';
import type { CommandIo } from './command-io.js';
import { untilStopped, type StopOptions } from './stop-signal.js';

export async function runWorker(args: string[], io: CommandIo, options: StopOptions = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout('Usage: deckforge worker\n\nRuns queued jobs of DECKFORGE_DATA_DIR until SIGINT/SIGTERM.\n');
    return 0;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`deckforge worker: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const runtime = await createRuntime(config, { consumeJobs: true, jobConcurrency: config.workers });
  io.stdout(`Deckforge worker is running ${config.workers} generation thread(s) on ${config.dataDir}\n`);
  await untilStopped(options);
  await runtime.close();
  return 0;
}

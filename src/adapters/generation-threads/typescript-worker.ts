/**
 * A worker thread running a TypeScript module through tsx: how the generation pool starts its threads when the
 * tests run the sources rather than the build (worker-thread-pool.ts), and how tests start threads of their own.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A Worker importing `entry` (a file: URL of a .ts module), resolved as `importer` (the caller's URL) would. */
export function typescriptWorker(entry: string, importer: string, options: WorkerOptions = {}): Worker {
  // require.resolve finds the CommonJS entry; the worker imports the ES module one beside it.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(importer)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}

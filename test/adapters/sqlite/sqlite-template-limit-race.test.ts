/**
 * The stored-template limit holds across connections, not only inside one event loop (TemplateStore.addVersion:
 * the limits checked "in the same atomic step as the insert"). better-sqlite3 is synchronous, so the shared
 * contract's concurrent adds run one after another in one thread there; here several threads, each with its own
 * connection to one file (WAL, busy_timeout, as the service opens it), add at once for the same accounts. Each
 * account is a new race at its limit: a count read by one thread while another inserts lets both in.
 */
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { typescriptWorker } from '../../../src/adapters/generation-threads/typescript-worker.js';
import { databasePath, openDatabase } from '../../../src/adapters/sqlite/database.js';
import { SqliteTemplateStore } from '../../../src/adapters/sqlite/sqlite-template-store.js';
import { tempDir } from '../../support/servers/temp-dir.js';
import { waitFor } from '../../support/servers/wait-for.js';
import type { AddTemplatesReport, AddTemplatesSettings } from './fixtures/add-templates-thread.js';

const THREADS = 4;
const ACCOUNTS = 20;
const LIMIT = 50;
const TRIES = 60;

/** The fixture's TypeScript through tsx, as the generation pool starts its threads under the tests. */
function startThread(settings: AddTemplatesSettings): Worker {
  const entry = new URL('./fixtures/add-templates-thread.ts', import.meta.url).href;
  return typescriptWorker(entry, import.meta.url, { workerData: settings });
}

function reportOf(thread: Worker): Promise<AddTemplatesReport> {
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`thread exited (${code}) before reporting`)));
  });
}

describe('stored-template limit across connections (SQLite)', () => {
  it(`${THREADS} threads adding ${TRIES} names each to ${ACCOUNTS} accounts, limit ${LIMIT}: each ends with exactly ${LIMIT}`, async () => {
    const dir = tempDir();
    const file = databasePath(dir.path);
    const threads: Worker[] = [];
    try {
      openDatabase(file).close(); // schema first, once
      const signal = new SharedArrayBuffer(8);
      const flags = new Int32Array(signal);
      const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `acct-${i}`);
      const limits = { templates: LIMIT, bytes: 1_000_000_000 };
      for (let i = 0; i < THREADS; i++) {
        threads.push(startThread({ file, accounts, tries: TRIES, limits, signal }));
      }
      const reports = Promise.all(threads.map(reportOf));
      await waitFor(() => Atomics.load(flags, 0) === THREADS, 'every thread to open the database');
      Atomics.store(flags, 1, 1);
      Atomics.notify(flags, 1);
      const done = await reports;

      const outcomes = done.flatMap((r) => r.outcomes);
      expect(outcomes.filter((o) => 'failed' in o)).toEqual([]);
      for (const outcome of outcomes) {
        if ('refused' in outcome) {
          expect(outcome.refused).toMatchObject({ name: 'TemplateLimitError', limit: 'templates' });
        }
      }
      const db = openDatabase(file, { migrate: false });
      const store = new SqliteTemplateStore(db);
      const held = await Promise.all(accounts.map(async (a) => (await store.holdings(a)).templates));
      db.close();
      expect(held).toEqual(accounts.map(() => LIMIT));
      expect(outcomes.filter((o) => 'added' in o)).toHaveLength(ACCOUNTS * LIMIT);
      expect(outcomes.filter((o) => 'refused' in o)).toHaveLength(ACCOUNTS * THREADS);

      // They ran at once: one moment lies inside every thread's run.
      const timeline = done.map((r) => `[${r.started}, ${r.finished}]`).join('; ');
      expect(Math.max(...done.map((r) => r.started)), timeline).toBeLessThan(
        Math.min(...done.map((r) => r.finished)),
      );
    } finally {
      await Promise.all(threads.map((t) => t.terminate()));
      dir.remove();
    }
  });
});

/**
 * A finished job's files as a client reads them: a deck kept beside its job (JobStore.keepsResults, a small
 * `generate_deck` result on the data directory's SQLite file) or a blob. The key is the same either way, so a
 * download link names the file alike wherever it is kept.
 */
import type { DeckContent } from '../deckforge-service.js';
import { heldContent } from '../generation/deck-content.js';
import type { JobRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { storedContent } from '../stored-content.js';

/** The job's file `key` (its result, or another of its outputs); null when it no longer exists. */
export async function jobFileContent(
  deps: Pick<ServiceDeps, 'jobs' | 'blobs'>,
  job: JobRecord,
  key: string,
): Promise<DeckContent | null> {
  const kept = await keptResult(deps, job, key);
  if (kept) return heldContent(kept);
  const reader = await deps.blobs.open(key);
  return reader ? storedContent(reader) : null;
}

/** The job's file `key` in memory (a deck to preview); null when it no longer exists. */
export async function jobFileBytes(
  deps: Pick<ServiceDeps, 'jobs' | 'blobs'>,
  job: JobRecord,
  key: string,
): Promise<Uint8Array | null> {
  return (await keptResult(deps, job, key)) ?? (await deps.blobs.get(key));
}

function keptResult(
  deps: Pick<ServiceDeps, 'jobs'>,
  job: JobRecord,
  key: string,
): Promise<Uint8Array | null> | null {
  if (key !== job.resultKey || !deps.jobs.getResult) return null;
  return deps.jobs.getResult(job.id);
}

/**
 * The shared compatibility corpus: real decks from other projects (see its SOURCES.md and manifest.json). It is
 * not part of the repository; tests read the files in place and never copy them in.
 *
 * It is found at $DECKFORGE_CORPUS, or else at ../shared/corpus beside the repository. Without it, the tests
 * whose point is the corpus are skipped (declare them with `describeCorpus` / `itCorpus`), and the rest of the
 * suite runs on templates the project builds itself (layouts-template.ts and its neighbours). The one line
 * saying how many were skipped comes from corpus-notice.ts (vitest's globalSetup).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestFunction } from 'vitest';
import { CORPUS_DIR, CORPUS_PRESENT } from './corpus-location.js';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

export { CORPUS_DIR, CORPUS_PRESENT };

/**
 * The tag (declared in vitest.config.ts) of every test that needs the corpus: `describeCorpus` and `itCorpus` give
 * it. CI runs the test files that use them once more with the corpus, with `--tags-filter=corpus`, so that only
 * those tests run twice, not the rest of their files.
 */
export const CORPUS_TAG = 'corpus';

/**
 * A suite that needs the corpus: it runs when the corpus is there and is reported skipped when it is not. Its
 * body is not even collected then, since it may build templates from corpus decks while it declares its tests.
 */
export const describeCorpus: (name: string, body: () => void) => void = CORPUS_PRESENT
  ? (name, body) => describe(name, { tags: [CORPUS_TAG] }, body)
  : (name) => describe.skip(name, { tags: [CORPUS_TAG] }, () => {});

const itWhenCorpus = it.skipIf(!CORPUS_PRESENT);
const corpusTestOptions = (timeout: number | undefined) => ({
  tags: [CORPUS_TAG],
  ...(timeout === undefined ? {} : { timeout }),
});

/** A single test that needs the corpus, in a file whose other tests run without it. */
export function itCorpus(name: string, fn: TestFunction, timeout?: number): void {
  itWhenCorpus(name, corpusTestOptions(timeout), fn);
}
/** One corpus test per case, named with `%s` (vitest's `it.each`). */
itCorpus.each =
  <T>(cases: readonly T[]) =>
  (name: string, fn: (item: T) => Promise<void> | void, timeout?: number): void =>
    itWhenCorpus.each([...cases])(name, corpusTestOptions(timeout), fn);

interface ManifestEntry {
  file: string;
  invalid: boolean;
  bytes: number;
  sha256: string;
  features?: string[];
  strict_ooxml?: boolean | null;
  counts?: { slides: number; slides_with_tables?: number } | null;
  ooxml_sdk_validator_baseline?: { errors?: number; throws?: string };
  libreoffice_7_4_pdf?: { rc?: number; pages?: number } | null;
}

export interface CorpusFile {
  /** Path relative to the corpus folder, e.g. 'pptx-automizer/ChartScatter.pptx' (the manifest's key). */
  file: string;
  /** Absolute path on disk. */
  path: string;
  bytes: number;
  sha256: string;
  slides: number;
  /** Slides holding at least one table (the manifest's `slides_with_tables`). */
  slidesWithTables: number;
  /** ISO 29500 Strict package (the engine refuses these at open). */
  strict: boolean;
  features: string[];
  /**
   * Open XML SDK validator error count recorded for the file, or undefined when the validator itself
   * crashed on it (`baselineThrows` then holds its message).
   */
  baseline: number | undefined;
  baselineThrows: string | undefined;
  /** Pages LibreOffice made of it when the corpus was collected; 0 when it made no PDF. */
  libreofficePages: number;
}

export interface InvalidCorpusFile {
  file: string;
  path: string;
  bytes: number;
}

let manifest: ManifestEntry[] | undefined;

/** Without the corpus the manifest is empty: suites that list its decks collect nothing and are skipped. */
function readManifest(): ManifestEntry[] {
  manifest ??= CORPUS_PRESENT
    ? (JSON.parse(readFileSync(join(CORPUS_DIR, 'manifest.json'), 'utf8')) as ManifestEntry[])
    : [];
  return manifest;
}

/** Every valid deck of the corpus (Strict ones included, flagged), in manifest order. */
export function corpusFiles(): CorpusFile[] {
  return readManifest()
    .filter((e) => !e.invalid)
    .map((e) => ({
      file: e.file,
      path: join(CORPUS_DIR, e.file),
      bytes: e.bytes,
      sha256: e.sha256,
      slides: e.counts?.slides ?? 0,
      slidesWithTables: e.counts?.slides_with_tables ?? 0,
      strict: e.strict_ooxml === true,
      features: e.features ?? [],
      baseline: e.ooxml_sdk_validator_baseline?.errors,
      baselineThrows: e.ooxml_sdk_validator_baseline?.throws,
      libreofficePages: e.libreoffice_7_4_pdf?.rc === 0 ? (e.libreoffice_7_4_pdf.pages ?? 0) : 0,
    }));
}

/** The deliberately broken inputs (`*\/_invalid/*`): encrypted CFB, truncated or corrupt ZIPs. */
export function invalidCorpusFiles(): InvalidCorpusFile[] {
  return readManifest()
    .filter((e) => e.invalid)
    .map((e) => ({ file: e.file, path: join(CORPUS_DIR, e.file), bytes: e.bytes }));
}

/** Looks a file up by its manifest key; throws for a name the manifest does not list. */
export function corpusFile(file: string): CorpusFile {
  const found = corpusFiles().find((f) => f.file === file);
  if (!found) throw new Error(`corpus file not in manifest.json: ${file}`);
  return found;
}

/**
 * The bytes of a corpus file, by manifest key or entry. Without the corpus this is an empty array: a module of
 * a skipped suite may read its decks while vitest collects it, and must still load; a test that is not gated
 * and reads one fails on it as on any non-deck.
 */
export function readCorpus(file: string | { path: string }): Uint8Array {
  if (!CORPUS_PRESENT) return new Uint8Array(0);
  const path = typeof file === 'string' ? join(CORPUS_DIR, file) : file.path;
  return new Uint8Array(readFileSync(path));
}

/**
 * At most `count` of `items`, spread evenly over them, the first and the last included, in their order: how the
 * corpus sweeps take a few slides of a long deck.
 */
export function spread<T>(items: readonly T[], count: number): T[] {
  const taken = Math.min(items.length, count);
  if (taken <= 1) return items.slice(0, taken);
  const picks = Array.from({ length: taken }, (_, k) => Math.round((k * (items.length - 1)) / (taken - 1)));
  return [...new Set(picks)].map((i) => items[i] as T);
}

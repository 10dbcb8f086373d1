/**
 * The shared compatibility corpus (../shared/corpus beside the repository; see its SOURCES.md and
 * manifest.json). Tests read the files in place; they are never copied into the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertRunningFromSource } from './source-guard.js';

assertRunningFromSource(import.meta.url);

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `../shared/corpus` relative to the repository root; /work/shared/corpus when the clone lives elsewhere. */
export const CORPUS_DIR =
  [join(REPO_ROOT, '..', 'shared', 'corpus'), '/work/shared/corpus'].find((d) =>
    existsSync(join(d, 'manifest.json')),
  ) ?? join(REPO_ROOT, '..', 'shared', 'corpus');

interface ManifestEntry {
  file: string;
  invalid: boolean;
  bytes: number;
  sha256: string;
  features?: string[];
  strict_ooxml?: boolean | null;
  counts?: { slides: number; slides_with_tables?: number } | null;
  ooxml_sdk_validator_baseline?: { errors?: number; throws?: string };
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
}

export interface InvalidCorpusFile {
  file: string;
  path: string;
  bytes: number;
}

let manifest: ManifestEntry[] | undefined;

function readManifest(): ManifestEntry[] {
  manifest ??= JSON.parse(readFileSync(join(CORPUS_DIR, 'manifest.json'), 'utf8')) as ManifestEntry[];
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

/** The bytes of a corpus file, by manifest key or entry. */
export function readCorpus(file: string | { path: string }): Uint8Array {
  const path = typeof file === 'string' ? join(CORPUS_DIR, file) : file.path;
  return new Uint8Array(readFileSync(path));
}

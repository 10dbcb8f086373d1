/**
 * The files a job makes beyond its deck (docs/previews.md): its PDF and its slide images, stored as blobs under the
 * job's prefix (so retention deletes them with the job), and a small record of them, `outputs.json`, written
 * when the job is submitted (what was asked for) and again when it succeeds (what was made). The status
 * endpoint reads the record to sign a link per file, fresh on each call, exactly as it signs `file_url`.
 */
import type { Warning } from '../../engine/index.js';
import type { LinkBase } from '../deckforge-service.js';
import { DECK_ONLY, needsRenderer, type OutputRequest } from '../generation/output-format.js';
import { deckBaseName, fontWarnings, renderDeck, withExtension } from '../generation/render-deck.js';
import { DOWNLOAD_LINK_VALIDITY_MS, type ServiceDeps } from '../service-deps.js';
import { jobBlobPrefix } from './job-blob-keys.js';

interface OutputsRecord {
  output: OutputRequest;
  /** Set once the job succeeded: the PDF beside the deck (pptx+pdf), and the slide images in order. */
  pdf?: StoredFile | null;
  previews?: StoredFile[];
}

interface StoredFile {
  key: string;
  fileName: string;
}

const recordKey = (jobId: string): string => `${jobBlobPrefix(jobId)}/outputs.json`;

/** At submission: remembers what the job asked for beyond the deck (nothing is written for a plain deck). */
export async function recordRequestedOutputs(
  deps: ServiceDeps,
  jobId: string,
  output: OutputRequest,
): Promise<void> {
  if (!needsRenderer(output)) return;
  await putRecord(deps, jobId, { output });
}

async function putRecord(deps: ServiceDeps, jobId: string, record: OutputsRecord): Promise<void> {
  await deps.blobs.put(recordKey(jobId), new TextEncoder().encode(JSON.stringify(record)));
}

async function readRecord(deps: ServiceDeps, jobId: string): Promise<OutputsRecord | null> {
  const bytes = await deps.blobs.get(recordKey(jobId));
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as OutputsRecord) : null;
}

/** What a job's result is, once its deck is built: the key and name `file_url` points at, and the warnings. */
export interface StoredResult {
  resultKey: string;
  resultFileName: string;
  warnings: Warning[];
}

/**
 * After the deck is built into `deckFile`: stores the deck (unless only its PDF was asked for), renders and
 * stores what was asked for beyond it, and records it for the status endpoint. The deck file is taken over.
 */
export async function storeJobOutputs(
  deps: ServiceDeps,
  job: { id: string; accountId: string },
  deckFile: string,
  deck: { fileName: string; warnings: Warning[] },
  /** The consumer stopping: a render waiting or running is withdrawn. */
  halt?: AbortSignal,
  /** Told the pages rendered, as the renderer knows them (RenderRequest.onPages). */
  onPages?: (pagesRendered: number) => void,
): Promise<StoredResult> {
  const prefix = jobBlobPrefix(job.id);
  const record = await readRecord(deps, job.id);
  const output = record?.output ?? DECK_ONLY;
  if (!needsRenderer(output)) {
    await deps.blobs.putFile(`${prefix}/result.pptx`, deckFile);
    return { resultKey: `${prefix}/result.pptx`, resultFileName: deck.fileName, warnings: deck.warnings };
  }
  const wantsPdf = output.format !== 'pptx';
  const rendered = await renderDeck(deps, {
    accountId: job.accountId,
    deckFile,
    pdf: wantsPdf,
    pngWidth: output.previewWidth,
    signal: halt,
    onPages,
  });
  try {
    const pdfName = withExtension(deck.fileName, 'pdf');
    let pdf: StoredFile | null = null;
    if (wantsPdf) {
      if (rendered.pdfFile === null) throw new Error('the renderer wrote no PDF although one was asked for');
      pdf = { key: `${prefix}/result.pdf`, fileName: pdfName };
      await deps.blobs.putFile(pdf.key, rendered.pdfFile);
    }
    const previews: StoredFile[] = [];
    const base = deckBaseName(deck.fileName);
    for (const [index, png] of rendered.pngFiles.entries()) {
      const file = { key: `${prefix}/slide-${index + 1}.png`, fileName: `${base}-slide-${index + 1}.png` };
      await deps.blobs.putFile(file.key, png);
      previews.push(file);
    }
    const warnings = [...deck.warnings, ...fontWarnings(rendered)];
    if (output.format === 'pdf' && pdf) {
      await putRecord(deps, job.id, { output, pdf: null, previews });
      return { resultKey: pdf.key, resultFileName: pdf.fileName, warnings };
    }
    await deps.blobs.putFile(`${prefix}/result.pptx`, deckFile);
    await putRecord(deps, job.id, { output, pdf, previews });
    return { resultKey: `${prefix}/result.pptx`, resultFileName: deck.fileName, warnings };
  } finally {
    await rendered.discard();
  }
}

/** The status body's `pdf_url` and `preview_urls`, present only when the job asked for them. */
export async function outputLinks(
  deps: ServiceDeps,
  jobId: string,
  succeeded: boolean,
  baseUrl: LinkBase,
): Promise<{ pdfUrl?: string | null; previewUrls?: string[] }> {
  const record = await readRecord(deps, jobId);
  if (!record) return {};
  const expiresAt = new Date(deps.clock.now().getTime() + DOWNLOAD_LINK_VALIDITY_MS);
  const sign = (file: StoredFile): Promise<string> =>
    deps.blobs.signedUrl({
      key: file.key,
      fileName: file.fileName,
      baseUrl: typeof baseUrl === 'string' ? baseUrl : baseUrl(),
      expiresAt,
    });
  const links: { pdfUrl?: string | null; previewUrls?: string[] } = {};
  if (record.output.format === 'pptx+pdf') {
    links.pdfUrl = succeeded && record.pdf ? await sign(record.pdf) : null;
  }
  if (record.output.previewWidth !== null) {
    links.previewUrls = succeeded ? await Promise.all((record.previews ?? []).map(sign)) : [];
  }
  return links;
}

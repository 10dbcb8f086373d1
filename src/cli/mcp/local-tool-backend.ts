/**
 * `deckforge mcp --local DIR` (docs/mcp.md, "On your machine"): the seven tools on one folder, with the engine
 * in this process. Templates are the folder's .pptx and .potx files (local-folder.ts), decks are written into its
 * `deckforge-output` folder under their id, and usage counts this run. Nothing else is read or written, and no
 * URL is fetched: a template or picture is a file of the folder, named by its file name.
 */
import { createHash, randomUUID } from 'node:crypto';
import { isDataUri, parsePayload, type DeckRequest } from '../../engine/index.js';
import type { DeckOutcome, TemplateSummary, ToolBackend, UsageFigures } from '../../mcp/tool-backend.js';
import { ToolError } from '../../mcp/tool-error.js';
import type { EngineRuns } from './engine-runs.js';
import type { LocalFolder } from './local-folder.js';
import { pictureSourceUses } from '../../engine/index.js';

const DECK_ID = /^[0-9a-f-]{36}$/;

export function localToolBackend(
  folder: LocalFolder,
  engine: EngineRuns,
): ToolBackend & { counts: RunCounts } {
  const counts: RunCounts = { slides: 0, calls: 0, failed: 0 };
  const decks = new Map<string, DeckOutcome>();

  async function template(reference: string): Promise<{ summary: TemplateSummary; bytes: Uint8Array }> {
    const names = await folder.templateNames();
    const name = names.find(
      (n) => n === reference || n.replace(/\.(pptx|potx)$/i, '') === reference || idOf(n) === reference,
    );
    if (!name) {
      // Only plain names are looked for: a path is refused as such, not reported missing.
      await folder.read(reference, 'template', 'template');
      throw new ToolError('not_found', `template: "${reference}" is no template file of the folder`);
    }
    const bytes = await folder.read(name, 'template', 'template');
    const inspect = await engine.inspect(bytes);
    return { summary: { id: idOf(name), name, version: 1, slides: inspect.slides.length }, bytes };
  }

  /** The payload's templates and pictures, read from the folder by file name (and nothing else). */
  async function filesOf(jsonData: Record<string, unknown>): Promise<Map<string, Uint8Array>> {
    let request: DeckRequest;
    try {
      request = parsePayload(jsonData).request;
    } catch {
      return new Map(); // the engine says what is wrong with it, with the JSON path
    }
    const files = new Map<string, Uint8Array>();
    for (const { source, path } of request.templates.map((t) => ({ source: t.source, path: t.path }))) {
      if (/^https?:\/\//i.test(source)) {
        throw new ToolError(
          'invalid_input',
          `${path}: the local mode fetches no URL; put the template in the folder`,
          { path },
        );
      }
      if (!files.has(source)) files.set(source, (await template(source)).bytes);
    }
    for (const use of pictureSourceUses(request)) {
      if (files.has(use.source) || isDataUri(use.source)) continue;
      if (/^https?:\/\//i.test(use.source)) {
        if (!use.explicit) continue; // a bare string on a text shape is text
        throw new ToolError(
          'invalid_input',
          `${use.path}: the local mode fetches no URL; put the picture in the folder`,
          { path: use.path },
        );
      }
      if (!use.explicit) continue;
      files.set(use.source, await folder.read(use.source, 'picture', use.path));
    }
    return files;
  }

  return {
    counts,
    async listTemplates() {
      const names = await folder.templateNames();
      return Promise.all(names.map(async (name) => (await template(name)).summary));
    },
    async uploadTemplate({ name, source }) {
      if ('url' in source)
        throw new ToolError('invalid_input', 'url: the local mode fetches no URL; give content_base64', {
          path: 'arguments.url',
        });
      const fileName = /\.(pptx|potx)$/i.test(name) ? name : `${name}.pptx`;
      await engine.inspect(source.bytes); // what is not a readable .pptx is refused before it is written
      const existing = (await folder.templateNames()).includes(fileName);
      const same = existing && sha(await folder.read(fileName, 'template')) === sha(source.bytes);
      if (!same) await folder.writeTemplate(fileName, source.bytes);
      return { template: (await template(fileName)).summary, created: !same };
    },
    async inspectTemplate(reference) {
      const { summary, bytes } = await template(reference);
      return { template: summary, inspect: await engine.inspect(bytes) };
    },
    async checkDeck(jsonData) {
      const deck = await engine.generate(jsonData, await filesOf(jsonData));
      return { slideCount: deck.slideCount, warnings: deck.warnings };
    },
    async generateDeck(jsonData) {
      const deck = await engine.generate(jsonData, await filesOf(jsonData));
      const deckId = randomUUID();
      const file = await folder.writeOutput(`${deckId}.pptx`, deck.bytes);
      counts.slides += deck.slideCount;
      const outcome: DeckOutcome = {
        deckId,
        status: 'SUCCEEDED',
        downloadUrl: null,
        slideCount: deck.slideCount,
        warnings: deck.warnings,
        errorMessage: null,
        progress: null,
      };
      decks.set(deckId, outcome);
      return { ...outcome, file };
    },
    async getJob(jobId) {
      const known = decks.get(jobId);
      if (known) return known;
      throw new ToolError('not_found', `No job with id ${jobId} in this run`);
    },
    async renderPreview(source, slides, longSide) {
      let bytes: Uint8Array;
      if ('template' in source) bytes = (await template(source.template)).bytes;
      else {
        if (!DECK_ID.test(source.deckId)) throw new ToolError('not_found', `No job with id ${source.deckId}`);
        bytes = await folder.readOutput(`${source.deckId}.pptx`);
      }
      const previews = await engine.preview(bytes, slides, longSide);
      counts.slides += previews.slides.length;
      return previews;
    },
    async usage(): Promise<UsageFigures> {
      return {
        usedSlideCount: counts.slides,
        allowedSlideCount: 0,
        plan: 'local (no allowance)',
        resetDate: '',
        totalApiCallCount: counts.calls,
        successfulApiCallCount: counts.calls - counts.failed,
        failedApiCallCount: counts.failed,
        previousMonthUsedSlideCount: 0,
      };
    },
  };
}

/** What this run has done: slides made (decks and pictures) and tool calls. */
export interface RunCounts {
  slides: number;
  calls: number;
  failed: number;
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A local template's id: stable for its name, never a path. */
function idOf(name: string): string {
  return `local_${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
}

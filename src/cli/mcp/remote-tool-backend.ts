/**
 * `deckforge mcp --url URL` (docs/mcp.md, "On your machine"): the seven tools over a Deckforge server's REST API,
 * through the typed client (`deckforge/client`) with the token in DECKFORGE_TOKEN. The server counts, throttles
 * and charges each REST call it receives. What the REST API has no call for is done here with the engine
 * (engine-runs.ts) on what the server gave: a dry run builds the deck from the downloaded stored template and
 * keeps nothing; a preview copies the chosen slides into a deck of their own, which the server draws
 * (`POST /v1.0/render`, charged there one slide per picture). A deck is made as a job, waited for up to the
 * synchronous answer's time, and given with its job id and link.
 */
import { DeckforgeClient, DeckforgeError, DeckforgeTimeoutError, type JobStatus } from 'deckforge/client';
import { readZipEntries, type InspectResult } from '../../engine/index.js';
import type { DeckOutcome, TemplateSummary, ToolBackend } from '../../mcp/tool-backend.js';
import { categoryOfStatus, ToolError } from '../../mcp/tool-error.js';
import type { EngineRuns } from './engine-runs.js';

/** How long generate_deck waits for its job before answering with it still running. */
const SYNC_WAIT_MS = 60_000;

export function remoteToolBackend(baseUrl: string, token: string, engine: EngineRuns): ToolBackend {
  const client = new DeckforgeClient({ baseUrl, token });

  async function stored(reference: string) {
    const templates = await client.listTemplates();
    const found = templates.find((t) => t.id === reference) ?? templates.find((t) => t.name === reference);
    if (!found) {
      // An id of an older version is not in the list of latest versions: ask for it.
      return client.getTemplate(reference).catch((error: unknown) => {
        if (error instanceof DeckforgeError && error.status === 404) {
          throw new ToolError('not_found', `template: "${reference}" is no stored template of this account`);
        }
        throw error;
      });
    }
    return client.getTemplate(found.id);
  }

  async function templateFiles(jsonData: Record<string, unknown>): Promise<Map<string, Uint8Array>> {
    const presentation = (jsonData['presentation'] ?? jsonData) as Record<string, unknown>;
    const reference = presentation['template'];
    if (typeof reference !== 'string' || /^https?:\/\//i.test(reference)) return new Map();
    const detail = await stored(reference);
    return new Map([[reference, await client.downloadTemplate(detail.id)]]);
  }

  const backend: ToolBackend = {
    async listTemplates() {
      return (await client.listTemplates()).map(summary);
    },
    async uploadTemplate({ name, source }) {
      if ('url' in source) {
        throw new ToolError(
          'invalid_input',
          'url: the REST upload of a stored template takes the file itself; give content_base64',
          { path: 'arguments.url' },
        );
      }
      const before = (await client.listTemplates()).find((t) => t.name === name);
      const template = await client.uploadTemplate(source.bytes, name);
      return { template: summary(template), created: before?.id !== template.id };
    },
    async inspectTemplate(reference) {
      const detail = await stored(reference);
      return { template: summary(detail), inspect: detail.inspect as unknown as InspectResult };
    },
    async checkDeck(jsonData) {
      const deck = await engine.generate(jsonData, await templateFiles(jsonData));
      return { slideCount: deck.slideCount, warnings: deck.warnings };
    },
    async generateDeck(jsonData) {
      const jobId = await client.submit(null, jsonData as Parameters<DeckforgeClient['submit']>[1]);
      try {
        return outcome(jobId, await client.waitForJob(jobId, { timeoutMs: SYNC_WAIT_MS }));
      } catch (error) {
        if (error instanceof DeckforgeTimeoutError) return outcome(jobId, await client.jobStatus(jobId));
        throw error;
      }
    },
    async getJob(jobId) {
      return outcome(jobId, await client.jobStatus(jobId));
    },
    async renderPreview(source, slides, longSide) {
      let deck: Uint8Array;
      if ('template' in source) deck = await client.downloadTemplate((await stored(source.template)).id);
      else {
        const status = await client.jobStatus(source.deckId);
        if (status.status !== 'SUCCEEDED' || !status.file_url) {
          throw new ToolError(
            'invalid_input',
            `deck_id: the job is ${status.status}; a preview needs its finished deck`,
          );
        }
        deck = await client.downloadLink(status.file_url);
      }
      return engine.preview(deck, slides, longSide, async (copy, width) => {
        const zip = await client.render(copy, { format: 'png', width });
        const pages = readZipEntries(zip)
          .filter((entry) => /^slide-\d+\.png$/.test(entry.name))
          .sort((a, b) => pageOf(a.name) - pageOf(b.name));
        return { pngs: pages.map((entry) => entry.bytes), warnings: [] };
      });
    },
    async usage() {
      const usage = await client.usage();
      return {
        usedSlideCount: usage.usedSlideCount ?? 0,
        allowedSlideCount: usage.allowedSlideCount ?? 0,
        plan: usage.plan ?? '',
        resetDate: usage.resetDate ?? '',
        totalApiCallCount: usage.totalApiCallCount ?? 0,
        successfulApiCallCount: usage.successfulApiCallCount ?? 0,
        failedApiCallCount: usage.failedApiCallCount ?? 0,
        previousMonthUsedSlideCount: usage.previousMonthUsedSlideCount ?? 0,
      };
    },
  };
  return withRestErrors(backend);
}

/** The server's refusals as tool errors: its status's category, its `details` or `detail` as the message. */
function withRestErrors(backend: ToolBackend): ToolBackend {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(backend) as [
    string,
    (...args: unknown[]) => Promise<unknown>,
  ][]) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (error) {
        if (error instanceof DeckforgeError) {
          const body = error.body as { details?: string; detail?: string } | string;
          const text = typeof body === 'string' ? body : (body.details ?? body.detail ?? error.message);
          throw new ToolError(categoryOfStatus(error.status), text, error.code ? { code: error.code } : {});
        }
        if (error instanceof Error && error.name === 'DeckforgeNetworkError') {
          throw new ToolError('server', `the Deckforge server did not answer: ${error.message}`);
        }
        throw error;
      }
    };
  }
  return wrapped as unknown as ToolBackend;
}

function summary(template: { id: string; name: string; version: number; slides: number }): TemplateSummary {
  return { id: template.id, name: template.name, version: template.version, slides: template.slides };
}

function outcome(jobId: string, status: JobStatus): DeckOutcome {
  const progress = status.progress ?? null;
  return {
    deckId: jobId,
    status: status.status,
    downloadUrl: status.file_url,
    slideCount: null,
    warnings: status.warnings.map(({ path, message }) => ({ path, message })),
    errorMessage: status.error_message,
    progress: progress && { slidesDone: progress.slides_done, slidesTotal: progress.slides_total },
  };
}

function pageOf(name: string): number {
  return Number(/\d+/.exec(name)?.[0] ?? 0);
}

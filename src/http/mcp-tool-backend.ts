/**
 * The MCP tools' backend on the API server (docs/mcp.md, "Over HTTP"): each tool is the service call the REST
 * route it stands for makes, for the account the bearer token named, and its errors go through the one error
 * mapper (error-mapper.ts): a tool error says what the REST answer's `details` or `detail` says, in the category
 * of its status. Each tool call is throttled and counted like one REST call (accounting below).
 */
import { EngineError } from '../engine/index.js';
import type { ToolCallAccounting } from '../mcp/mcp-server.js';
import type { DeckOutcome, TemplateSummary, ToolBackend } from '../mcp/tool-backend.js';
import { categoryOfStatus, ToolError } from '../mcp/tool-error.js';
import type { ToolName } from '../mcp/tool-schemas.js';
import type { Account, DeckforgeService, LinkBase } from '../service/deckforge-service.js';
import type { StoredTemplate } from '../service/request-reading.js';
import { mapError, type ErrorMapperLimits } from './errors/error-mapper.js';
import type { EndpointKind } from './errors/error-shapes.js';

/** Which REST route's error row a tool's errors take. */
const ENDPOINT_OF: Record<ToolName, EndpointKind> = {
  list_templates: 'templates',
  upload_template: 'templates',
  describe_template: 'templates',
  generate_deck: 'generate',
  get_job: 'job-status',
  render_preview: 'render',
  get_usage: 'usage',
};

/** The category and REST text of any error a service call throws. */
export function toolErrorOf(error: unknown, tool: ToolName, limits: ErrorMapperLimits): ToolError {
  if (error instanceof ToolError) return error;
  const mapped = mapError(error, ENDPOINT_OF[tool], limits);
  const body = mapped.body as { details?: string; detail?: string; Message?: string };
  const message = body.details ?? body.detail ?? body.Message ?? 'error';
  const path = error instanceof EngineError && error.path ? { path: error.path } : {};
  return new ToolError(categoryOfStatus(mapped.statusCode), message, { ...path, code: mapped.code });
}

export function summary(template: StoredTemplate): TemplateSummary {
  return { id: template.id, name: template.name, version: template.version, slides: template.slides };
}

export function serviceToolBackend(
  service: DeckforgeService,
  account: Account,
  linkBase: LinkBase,
  limits: ErrorMapperLimits,
): ToolBackend {
  const guarded =
    <A extends unknown[], R>(tool: ToolName, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args);
      } catch (error) {
        throw toolErrorOf(error, tool, limits);
      }
    };
  return {
    listTemplates: guarded('list_templates', async () =>
      (await service.templates.list(account)).map(summary),
    ),
    uploadTemplate: guarded('upload_template', async ({ name, source }) => {
      const { template, created } =
        'url' in source
          ? await service.templates.uploadFromUrl(account, { url: source.url, name })
          : await service.templates.upload(account, { file: { name, bytes: source.bytes }, name });
      return { template: summary(template), created };
    }),
    inspectTemplate: guarded('describe_template', async (reference) => {
      const detail = await service.templates.find(account, reference);
      return { template: summary(detail), inspect: detail.inspect };
    }),
    checkDeck: guarded('generate_deck', (jsonData) =>
      service.checkDeck(account, { jsonData: asText(jsonData), files: [] }),
    ),
    generateDeck: guarded('generate_deck', async (jsonData): Promise<DeckOutcome> => {
      const deck = await service.generateStored(account, { jsonData: asText(jsonData), files: [] }, linkBase);
      return {
        deckId: deck.jobId,
        status: deck.status,
        downloadUrl: deck.fileUrl,
        slideCount: deck.slideCount,
        warnings: deck.warnings,
        errorMessage: null,
        progress: null,
      };
    }),
    getJob: guarded('get_job', async (jobId): Promise<DeckOutcome> => {
      const job = await service.jobSummary(account, jobId, linkBase);
      return {
        deckId: job.jobId,
        status: job.state,
        downloadUrl: job.downloadUrl,
        slideCount: job.slideCount,
        warnings: job.warnings,
        errorMessage: job.errorMessage,
        progress: job.progress && {
          slidesDone: job.progress.slidesDone,
          slidesTotal: job.progress.slidesTotal,
        },
      };
    }),
    renderPreview: guarded('render_preview', (source, slides, longSide) =>
      service.previewSlides(account, source, slides, longSide),
    ),
    usage: guarded('get_usage', (() => service.usage(account)) as () => ReturnType<
      DeckforgeService['usage']
    >),
  };
}

/**
 * `jsonData` as the REST form field carries it: text crosses to a generation thread as one string, where an
 * object is cloned member by member each time a thread is handed it (generation-input.ts, `payloadSource`), and
 * it then meets the same checks of nesting and size on the thread as the REST call's.
 */
function asText(jsonData: Record<string, unknown>): string {
  return JSON.stringify(jsonData);
}

/** A tool call throttled by the account's request rate and counted in its API calls, as one REST call is. */
export function serviceAccounting(
  service: DeckforgeService,
  account: Account,
  limits: ErrorMapperLimits,
): ToolCallAccounting {
  return {
    async begin(tool) {
      try {
        await service.checkRateLimit(account);
      } catch (error) {
        throw toolErrorOf(error, tool, limits);
      }
    },
    end: (_tool, succeeded) => service.recordApiCall(account, succeeded),
  };
}

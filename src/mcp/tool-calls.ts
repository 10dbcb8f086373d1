/**
 * What each tool does with its arguments (docs/mcp.md, "The tools"), over whichever ToolBackend serves it. The
 * arguments are checked here, naming the argument (`arguments.slides[2]`) in an `invalid_input` error; results
 * are the tools' structured content in snake_case. No argument is a path and no result holds one.
 */
import { closestNames, type Warning } from '../engine/index.js';
import { deckProblems } from './deck-checks.js';
import { describeTemplate } from './template-description.js';
import type { DeckOutcome, ToolBackend, UsageFigures } from './tool-backend.js';
import { ToolError } from './tool-error.js';
import type { ToolName } from './tool-schemas.js';

type Args = Record<string, unknown>;

/** A tool's answer: its structured content, and the pictures render_preview adds as image content. */
export interface ToolAnswer {
  structured: Record<string, unknown>;
  images?: Uint8Array[];
}

export const DEFAULT_PREVIEW_SIDE = 1024;
const CLOSEST_SHOWN = 3;

export async function callTool(name: ToolName, args: Args, backend: ToolBackend): Promise<ToolAnswer> {
  switch (name) {
    case 'list_templates':
      return { structured: { templates: await backend.listTemplates() } };
    case 'upload_template':
      return uploadTemplate(args, backend);
    case 'describe_template': {
      const reference = requiredString(args, 'template');
      const { template, inspect } = await withClosestTemplates(backend, reference, () =>
        backend.inspectTemplate(reference),
      );
      return { structured: { ...describeTemplate(template, inspect) } };
    }
    case 'generate_deck':
      return generateDeck(args, backend);
    case 'get_job':
      return { structured: deckResult(await backend.getJob(requiredString(args, 'job_id'))) };
    case 'render_preview':
      return renderPreview(args, backend);
    case 'get_usage':
      return { structured: usageResult(await backend.usage()) };
  }
}

async function uploadTemplate(args: Args, backend: ToolBackend): Promise<ToolAnswer> {
  const name = requiredString(args, 'name');
  const base64 = optionalString(args, 'content_base64');
  const url = optionalString(args, 'url');
  if ((base64 === undefined) === (url === undefined)) {
    throw new ToolError(
      'invalid_input',
      'arguments: give the template as content_base64 or as url (one of them)',
      {
        path: 'arguments',
      },
    );
  }
  let source: { bytes: Uint8Array } | { url: string };
  if (base64 !== undefined) {
    const compact = base64.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
      throw new ToolError('invalid_input', 'arguments.content_base64: not base64', {
        path: 'arguments.content_base64',
      });
    }
    source = { bytes: new Uint8Array(Buffer.from(compact, 'base64')) };
  } else {
    if (!/^https?:\/\/\S+$/i.test(url!)) {
      throw new ToolError('invalid_input', 'arguments.url: an http(s) URL is expected', {
        path: 'arguments.url',
      });
    }
    source = { url: url! };
  }
  const { template, created } = await backend.uploadTemplate({ name, source });
  return { structured: { template, created } };
}

async function generateDeck(args: Args, backend: ToolBackend): Promise<ToolAnswer> {
  const jsonData = args['jsonData'];
  if (typeof jsonData !== 'object' || jsonData === null || Array.isArray(jsonData)) {
    throw new ToolError(
      'invalid_input',
      `arguments.jsonData: expected the jsonData object (not ${typeof jsonData === 'string' ? 'a string' : 'this'}): {"presentation": {"template": …, "slides": […]}}`,
      { path: 'arguments.jsonData' },
    );
  }
  const dryRun = optionalBoolean(args, 'dry_run') ?? false;
  const payload = jsonData as Args;
  if (!dryRun) return { structured: deckResult(await backend.generateDeck(payload)) };
  const reference = templateOf(payload);
  const checked = await backend.checkDeck(payload);
  const problems = reference === null ? [] : deckProblems(payload, await describedOrNull(backend, reference));
  return {
    structured: {
      dry_run: true,
      ok: problems.length === 0 && checked.warnings.length === 0,
      slide_count: checked.slideCount,
      problems,
      warnings: checked.warnings,
    },
  };
}

async function describedOrNull(backend: ToolBackend, reference: string) {
  const { template, inspect } = await backend.inspectTemplate(reference);
  return describeTemplate(template, inspect);
}

async function renderPreview(args: Args, backend: ToolBackend): Promise<ToolAnswer> {
  const deckId = optionalString(args, 'deck_id');
  const template = optionalString(args, 'template');
  if ((deckId === undefined) === (template === undefined)) {
    throw new ToolError('invalid_input', 'arguments: give deck_id or template (one of them)', {
      path: 'arguments',
    });
  }
  const slides = args['slides'];
  if (!Array.isArray(slides) || slides.length === 0 || slides.length > 20) {
    throw new ToolError('invalid_input', 'arguments.slides: 1 to 20 slide indexes (0-based) are expected', {
      path: 'arguments.slides',
    });
  }
  slides.forEach((index: unknown, i) => {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      throw new ToolError(
        'invalid_input',
        `arguments.slides[${i}]: a slide index (an integer >= 0) is expected`,
        {
          path: `arguments.slides[${i}]`,
        },
      );
    }
  });
  const side = args['max_side'] ?? DEFAULT_PREVIEW_SIDE;
  if (typeof side !== 'number' || !Number.isInteger(side) || side < 64 || side > 2048) {
    throw new ToolError('invalid_input', 'arguments.max_side: an integer from 64 to 2048 is expected', {
      path: 'arguments.max_side',
    });
  }
  const wanted = [...new Set(slides as number[])];
  const source = deckId !== undefined ? { deckId } : { template: template! };
  const rendered = await (template === undefined
    ? backend.renderPreview(source, wanted, side)
    : withClosestTemplates(backend, template, () => backend.renderPreview(source, wanted, side)));
  const drawn = new Set(rendered.slides.map((s) => s.index));
  return {
    structured: {
      slides: rendered.slides.map((s, image) => ({ index: s.index, image })),
      missing: wanted.filter((index) => !drawn.has(index)),
      warnings: rendered.warnings,
    },
    images: rendered.slides.map((s) => s.png),
  };
}

/** A template name that is not stored: the error names the closest stored ones. */
async function withClosestTemplates<T>(
  backend: ToolBackend,
  reference: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ToolError) || error.category !== 'not_found') throw error;
    const names = (await backend.listTemplates().catch(() => [])).map((t) => t.name);
    throw new ToolError(error.category, error.message, {
      ...error.details,
      closest: closestNames(reference, names, CLOSEST_SHOWN),
    });
  }
}

function templateOf(payload: Args): string | null {
  const presentation = payload['presentation'];
  const root = typeof presentation === 'object' && presentation !== null ? (presentation as Args) : payload;
  return typeof root['template'] === 'string' ? root['template'] : null;
}

export function deckResult(deck: DeckOutcome): Record<string, unknown> {
  return {
    deck_id: deck.deckId,
    status: deck.status,
    download_url: deck.downloadUrl,
    slide_count: deck.slideCount,
    warnings: deck.warnings.map(plainWarning),
    error_message: deck.errorMessage,
    progress: deck.progress && {
      slides_done: deck.progress.slidesDone,
      slides_total: deck.progress.slidesTotal,
    },
    ...(deck.file === undefined ? {} : { file: deck.file }),
  };
}

function plainWarning(warning: Warning): { path: string; message: string } {
  return { path: warning.path, message: warning.message };
}

function usageResult(usage: UsageFigures): Record<string, unknown> {
  return {
    used_slide_count: usage.usedSlideCount,
    allowed_slide_count: usage.allowedSlideCount,
    plan: usage.plan,
    reset_date: usage.resetDate,
    total_api_call_count: usage.totalApiCallCount,
    successful_api_call_count: usage.successfulApiCallCount,
    failed_api_call_count: usage.failedApiCallCount,
    previous_month_used_slide_count: usage.previousMonthUsedSlideCount,
  };
}

function requiredString(args: Args, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ToolError('invalid_input', `arguments.${key}: a non-empty string is expected`, {
      path: `arguments.${key}`,
    });
  }
  return value;
}

function optionalString(args: Args, key: string): string | undefined {
  return args[key] === undefined || args[key] === null ? undefined : requiredString(args, key);
}

function optionalBoolean(args: Args, key: string): boolean | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    throw new ToolError('invalid_input', `arguments.${key}: true or false is expected`, {
      path: `arguments.${key}`,
    });
  }
  return value;
}

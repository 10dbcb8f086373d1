/**
 * The seven tools as an agent sees them in `tools/list` (docs/mcp.md, "The tools"): names, descriptions and the
 * JSON Schemas of their arguments and structured results. The argument names are the ones every Deckforge MCP
 * server uses, so that a prompt written once works against any of them. `generate_deck`'s `jsonData` is the
 * payload's own JSON Schema (src/engine/payload/); `describe_template` gives one narrowed to a template.
 */
import { payloadJsonSchema } from '../engine/index.js';

type Schema = Record<string, unknown>;

export type ToolName =
  | 'list_templates'
  | 'upload_template'
  | 'describe_template'
  | 'generate_deck'
  | 'get_job'
  | 'render_preview'
  | 'get_usage';

export interface ToolSchema {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: Schema & { type: 'object' };
  outputSchema: Schema & { type: 'object' };
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

const string = { type: 'string' };
const integer = { type: 'integer' };
const warnings = {
  type: 'array',
  description: 'What was skipped or adjusted, each with the JSON path it concerns',
  items: { type: 'object', required: ['path', 'message'], properties: { path: string, message: string } },
};
const template = {
  type: 'object',
  required: ['id', 'name', 'version', 'slides'],
  properties: { id: string, name: string, version: integer, slides: integer },
};
const deck = {
  type: 'object' as const,
  required: ['deck_id', 'status', 'download_url', 'slide_count', 'warnings'],
  properties: {
    deck_id: { type: 'string', description: 'The job id: get_job and render_preview take it' },
    status: { enum: ['QUEUED', 'PROCESSING', 'SUCCEEDED', 'FAILED'] },
    download_url: {
      type: ['string', 'null'],
      description: 'Pre-signed link, valid 15 minutes (get_job gives a fresh one)',
    },
    slide_count: { type: ['integer', 'null'] },
    warnings,
    error_message: { type: ['string', 'null'] },
    file: {
      type: 'string',
      description: 'deckforge mcp --local: the deck in the folder (deckforge-output/…)',
    },
    progress: {
      type: ['object', 'null'],
      properties: { slides_done: integer, slides_total: integer },
    },
  },
};

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** `jsonData`'s schema inside generate_deck's arguments: the payload schema, its `$defs` at the root. */
function jsonDataSchema(): { property: Schema; defs: Schema } {
  const {
    $defs,
    $schema: _schema,
    $id: _id,
    ...root
  } = structuredClone(payloadJsonSchema) as Schema & {
    $defs: Schema;
  };
  return { property: { ...root, type: 'object' }, defs: $defs };
}

const jsonData = jsonDataSchema();

export const TOOL_SCHEMAS: readonly ToolSchema[] = [
  {
    name: 'list_templates',
    title: 'List stored templates',
    description:
      "The account's stored templates: name, id, version and slide count of each name's latest version.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      required: ['templates'],
      properties: { templates: { type: 'array', items: template } },
    },
    annotations: READ,
  },
  {
    name: 'upload_template',
    title: 'Store a template',
    description:
      'Stores a .pptx template under a name (a new version when the name exists), given as base64 (content_base64) ' +
      'or as a public http(s) URL (url). The same bytes as the latest version store nothing and give it back.',
    inputSchema: {
      type: 'object',
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: 'The name jsonData will use as presentation.template',
        },
        content_base64: { type: 'string', description: 'The .pptx file, base64-encoded' },
        url: { type: 'string', description: 'A public http(s) URL of the .pptx' },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      required: ['template', 'created'],
      properties: { template, created: { type: 'boolean' } },
    },
    annotations: { ...WRITE, idempotentHint: true, openWorldHint: true },
  },
  {
    name: 'describe_template',
    title: 'Describe a template',
    description:
      'Everything needed to fill a stored template: each slide and layout with its shapes (name, id, target = what ' +
      'a jsonData shape entry writes to reach it, kind, placeholder type, text, box in EMU, capacity = how many ' +
      "characters and lines fit at the template's own font and size, table grid, chart types with series, " +
      'categories, form and the fields each series takes, SmartArt nodes) and `schema`, the JSON Schema of the ' +
      'jsonData this template accepts. A text fits when each paragraph takes ceil(characters / chars_per_line) ' +
      'lines and all of them together at most `lines`.',
    inputSchema: {
      type: 'object',
      required: ['template'],
      properties: {
        template: { type: 'string', minLength: 1, description: "A stored template's name or id" },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      required: ['template', 'slide_size', 'slides', 'layouts', 'schema'],
      properties: {
        template,
        slide_size: { type: ['object', 'null'], properties: { cx: integer, cy: integer } },
        slides: { type: 'array', items: { type: 'object', required: ['index', 'shapes'] } },
        layouts: { type: 'array', items: { type: 'object', required: ['index', 'name', 'shapes'] } },
        schema: { type: 'object' },
      },
    },
    annotations: READ,
  },
  {
    name: 'generate_deck',
    title: 'Generate a deck',
    description:
      'Builds a deck from jsonData (the object, not a string) whose presentation.template names a stored template. ' +
      "dry_run: true checks everything (unknown shapes with the closest names, text past a shape's capacity, tags " +
      'left unfilled, and every warning generation would give) and produces and charges nothing. Otherwise a deck ' +
      'within the synchronous limit comes back at once (status SUCCEEDED, download_url), a larger one as a job ' +
      '(status QUEUED: poll get_job).',
    inputSchema: {
      type: 'object',
      required: ['jsonData'],
      properties: {
        jsonData: jsonData.property,
        dry_run: { type: 'boolean', default: false },
      },
      additionalProperties: false,
      $defs: jsonData.defs,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...deck.properties,
        dry_run: { type: 'boolean' },
        ok: { type: 'boolean', description: 'Dry run: nothing to fix (no problem, no warning)' },
        problems: {
          type: 'array',
          items: {
            type: 'object',
            required: ['code', 'path', 'message'],
            properties: {
              code: { enum: ['unknown_shape', 'text_over_capacity', 'tag_unfilled'] },
              path: string,
              message: string,
              closest: { type: 'array', items: string },
            },
          },
        },
      },
    },
    annotations: { ...WRITE, openWorldHint: true },
  },
  {
    name: 'get_job',
    title: 'Read a job',
    description:
      "A deck's (a job's) status, progress, warnings and a fresh pre-signed download link once SUCCEEDED.",
    inputSchema: {
      type: 'object',
      required: ['job_id'],
      properties: { job_id: { type: 'string', minLength: 1, description: 'The deck_id generate_deck gave' } },
      additionalProperties: false,
    },
    outputSchema: deck,
    annotations: READ,
  },
  {
    name: 'render_preview',
    title: 'Preview slides',
    description:
      'PNG pictures of chosen slides (0-based indexes) of a generated deck (deck_id) or of a stored template ' +
      '(template), as image content, the longest side max_side pixels (1024 by default). Hidden slides have no ' +
      'picture. Drawn by the same sandboxed renderer as /v1.0/render, and counted like it: one slide per picture.',
    inputSchema: {
      type: 'object',
      required: ['slides'],
      properties: {
        deck_id: { type: 'string', minLength: 1 },
        template: { type: 'string', minLength: 1, description: "A stored template's name or id" },
        slides: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1, maxItems: 20 },
        max_side: { type: 'integer', minimum: 64, maximum: 2048, default: 1024 },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      required: ['slides', 'warnings'],
      properties: {
        slides: {
          type: 'array',
          items: {
            type: 'object',
            required: ['index', 'image'],
            properties: { index: integer, image: integer },
          },
          description: 'Each picture: the slide it shows and its place among the image contents',
        },
        missing: {
          type: 'array',
          items: integer,
          description: 'Slides asked for that have no picture (hidden)',
        },
        warnings,
      },
    },
    annotations: READ,
  },
  {
    name: 'get_usage',
    title: 'Usage',
    description: 'The slide allowance and API calls of the current period, as GET /v1.0/usage reports them.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      required: ['used_slide_count', 'allowed_slide_count', 'plan'],
      properties: {
        used_slide_count: integer,
        allowed_slide_count: integer,
        plan: string,
        reset_date: string,
        total_api_call_count: integer,
        successful_api_call_count: integer,
        failed_api_call_count: integer,
        previous_month_used_slide_count: integer,
      },
    },
    annotations: READ,
  },
];

/**
 * The MCP server the transports share (docs/mcp.md): the SDK's `Server` answering `tools/list` from
 * tool-schemas.ts and `tools/call` through tool-calls.ts over one ToolBackend. The protocol is the SDK's (stdio
 * and Streamable HTTP alike); what is ours is the tools. A tool's failure is a tool result with `isError: true`
 * whose text is `{"error": {category, message, path, closest}}`; an unknown tool or a malformed request stays a
 * JSON-RPC error. `accounting` wraps each tool call: the API server counts and throttles it there exactly like
 * the REST call it stands for.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { closestName } from '../engine/index.js';
import { callTool, type ToolAnswer } from './tool-calls.js';
import type { ToolBackend } from './tool-backend.js';
import { ToolError } from './tool-error.js';
import { TOOL_SCHEMAS, type ToolName } from './tool-schemas.js';

export interface ToolCallAccounting {
  /** Before the tool runs: may refuse it (a ToolError, `quota` for the rate limit). */
  begin(tool: ToolName): Promise<void>;
  /** After it ran (or was refused): whether it succeeded. */
  end(tool: ToolName, succeeded: boolean): Promise<void>;
}

export interface McpServerOptions {
  accounting?: ToolCallAccounting;
  /** Told every error that is not the caller's (category `server`), with the cause the answer leaves out. */
  onServerFault?: (error: unknown, tool: ToolName) => void;
  /** What a `server` error says instead of the cause (the REST API's shape C detail). */
  serverFaultMessage?: string;
}

export const SERVER_INFO = { name: 'deckforge', title: 'Deckforge', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Deckforge fills PowerPoint templates. Call describe_template on a stored template (list_templates names them), ' +
  "build jsonData from its shapes within each text shape's capacity, call generate_deck (dry_run: true first if " +
  'unsure), then render_preview with the deck_id to look at the slides. Errors carry a category: invalid_input, ' +
  'auth, quota, not_found or server.';

const byName = new Map(TOOL_SCHEMAS.map((tool) => [tool.name, tool]));

/**
 * The SDK's `Server` makes an Ajv of its own unless given one (for elicitation, which these tools never ask
 * for), and `/mcp` makes a server per request: one shared validator spares every request building Ajv, about as
 * much CPU as the rest of the protocol (bench/mcp/run.js). Ajv keeps compiled schemas by schema, so sharing it
 * shares nothing of one request with another.
 */
let schemaValidator: AjvJsonSchemaValidator | undefined;

export function createMcpServer(backend: ToolBackend, options: McpServerOptions = {}): Server {
  schemaValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: schemaValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOL_SCHEMAS.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      outputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name as ToolName);
    if (!tool) {
      const near = closestName(request.params.name, byName.keys());
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool ${request.params.name} not found${near ? ` (did you mean "${near}"?)` : ''}`,
      );
    }
    const args = request.params.arguments ?? {};
    let began = false;
    try {
      if (options.accounting) {
        began = true;
        await options.accounting.begin(tool.name);
      }
      checkArgumentNames(tool.name, args);
      const answer = await callTool(tool.name, args, backend);
      await options.accounting?.end(tool.name, true);
      return toolResult(answer);
    } catch (error) {
      if (began) await options.accounting?.end(tool.name, false).catch(() => undefined);
      return errorResult(error, tool.name, options);
    }
  });
  return server;
}

/** Arguments the tool does not take: named, with the one meant when it is a near miss (`dryRun` for `dry_run`). */
function checkArgumentNames(name: ToolName, args: Record<string, unknown>): void {
  const known = Object.keys((byName.get(name)!.inputSchema['properties'] as object | undefined) ?? {});
  for (const key of Object.keys(args)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw new ToolError(
      'invalid_input',
      `arguments.${key}: ${name} takes no argument "${key}"${near ? ` (did you mean "${near}"?)` : ''}; it takes ${known.length > 0 ? known.join(', ') : 'none'}`,
      { path: `arguments.${key}`, ...(near ? { closest: [near] } : {}) },
    );
  }
}

function toolResult(answer: ToolAnswer): CallToolResult {
  const images = (answer.images ?? []).map((png) => ({
    type: 'image' as const,
    data: Buffer.from(png).toString('base64'),
    mimeType: 'image/png',
  }));
  return {
    content: [{ type: 'text', text: JSON.stringify(answer.structured) }, ...images],
    structuredContent: answer.structured,
  };
}

function errorResult(error: unknown, tool: ToolName, options: McpServerOptions): CallToolResult {
  let body: { category: string; message: string } & ToolError['details'];
  if (error instanceof ToolError) {
    body = { category: error.category, message: error.message, ...error.details };
    if (error.category === 'server') options.onServerFault?.(error, tool);
  } else {
    options.onServerFault?.(error, tool);
    body = {
      category: 'server',
      message:
        options.serverFaultMessage ??
        'An error occurred while running the tool. See the server logs for details.',
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify({ error: body }) }], isError: true };
}

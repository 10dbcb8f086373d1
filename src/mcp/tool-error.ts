/**
 * A tool error an agent can act on (docs/mcp.md, "Errors"): its category, the message the REST API would give
 * (with the JSON path it names), for a name that does not exist the closest existing ones, and where the REST
 * call it stands for has one, the error's code (docs/http-api.md, "Error codes"). Protocol errors (an unknown
 * tool, a malformed request) stay JSON-RPC errors of the SDK.
 */
export type ToolErrorCategory = 'invalid_input' | 'auth' | 'quota' | 'not_found' | 'server';

export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    readonly category: ToolErrorCategory,
    message: string,
    readonly details: { path?: string; closest?: string[]; code?: string } = {},
  ) {
    super(message);
  }
}

/** The category of a REST status (docs/http-api.md, "Errors"): what a 400, 401, 404 or 429 means to an agent. */
export function categoryOfStatus(status: number): ToolErrorCategory {
  if (status === 400 || status === 409 || status === 413 || status === 415 || status === 422)
    return 'invalid_input';
  if (status === 401) return 'auth';
  // 403: a stored template past the plan's limit (docs/http-api.md, "Stored templates"): the plan's room.
  if (status === 403 || status === 429) return 'quota';
  if (status === 404) return 'not_found';
  return 'server';
}

/**
 * `deckforge mcp (--url URL | --local DIR)` (docs/mcp.md, "On your machine"): the MCP server on standard input
 * and output, for an agent that starts it (Claude Desktop, Claude Code, Cursor, VS Code), over the SDK's stdio
 * transport. `--url` serves a Deckforge server's account (the token in DECKFORGE_TOKEN); `--local` serves one
 * folder with the engine in this process. Standard output carries the protocol alone: messages go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError } from '../../config/config-error.js';
import { loadMcpToken } from '../../config/mcp-settings.js';
import { createMcpServer, type ToolCallAccounting } from '../../mcp/mcp-server.js';
import type { ToolBackend } from '../../mcp/tool-backend.js';
import type { CommandIo } from '../command-io.js';
import { EngineRuns } from './engine-runs.js';
import { LocalFolder } from './local-folder.js';
import { localToolBackend } from './local-tool-backend.js';
import { remoteToolBackend } from './remote-tool-backend.js';

const HELP = `Usage: deckforge mcp --url URL | --local DIR

  --url URL    serve a Deckforge server's account: its stored templates, jobs and usage
               (DECKFORGE_TOKEN: a bearer token of that server)
  --local DIR  serve one folder offline: its .pptx files are the templates, decks go into DIR/deckforge-output,
               nothing outside DIR is read or written and no URL is fetched

  The Model Context Protocol on standard input and output (docs/mcp.md has each client's configuration).
`;

export async function runMcp(args: string[], io: CommandIo): Promise<number> {
  let url: string | null = null;
  let local: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') {
      io.stdout(HELP);
      return 0;
    } else if (arg === '--url') url = args[++i] ?? '';
    else if (arg === '--local') local = args[++i] ?? '';
    else {
      io.stderr(`deckforge mcp: unknown option "${arg}"\n\n${HELP}`);
      return 2;
    }
  }
  if ((url === null) === (local === null) || url === '' || local === '') {
    io.stderr(HELP);
    return 2;
  }
  const engine = new EngineRuns();
  let backend: ToolBackend;
  let accounting: ToolCallAccounting | undefined;
  try {
    if (url !== null) {
      if (!/^https?:\/\/\S+$/i.test(url)) throw new ConfigError(`--url "${url}": an http(s) URL is expected`);
      backend = remoteToolBackend(url, loadMcpToken(), engine);
    } else {
      const folder = await LocalFolder.open(local!).catch((error: NodeJS.ErrnoException) => {
        throw new ConfigError(
          `--local "${local}": ${error.code === 'ENOENT' ? 'no such folder' : error.message}`,
        );
      });
      const localBackend = localToolBackend(folder, engine);
      backend = localBackend;
      accounting = {
        begin: async () => void localBackend.counts.calls++,
        end: async (_tool, succeeded) => void (succeeded ? undefined : localBackend.counts.failed++),
      };
    }
  } catch (error) {
    await engine.close();
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`deckforge mcp: ${error.message}\n`);
    return 2;
  }
  const server = createMcpServer(backend, {
    ...(accounting ? { accounting } : {}),
    onServerFault: (error, tool) =>
      io.stderr(`deckforge mcp: ${tool} failed: ${(error as Error).stack ?? String(error)}\n`),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await engine.close();
  return 0;
}

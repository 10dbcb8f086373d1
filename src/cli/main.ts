/**
 * The `deckforge` command. Each subcommand's module is imported only when it runs, so `deckforge generate`
 * starts without loading the HTTP server, the database driver or the worker pool.
 */
import { processIo, type CommandIo } from './command-io.js';

const COMMANDS = ['generate', 'render', 'inspect', 'serve', 'worker', 'accounts', 'migrate', 'help'];

const USAGE = `Usage: deckforge <command> [options]

Commands:
  generate FILE... PAYLOAD.json [-o OUT]   build a deck offline (no server): FILEs play the uploaded files;
                                            -o OUT.pdf writes its PDF, --previews DIR one PNG per slide
  render DECK.pptx -o OUT.pdf | --png DIR   draw any deck as a PDF or slide images (LibreOffice)
  inspect TEMPLATE [--json]                 list slides, layouts and shapes (name, id, kind, text, tags)
  mcp --url URL | --local DIR               the MCP server for AI agents, on standard input and output
  serve                                     run the HTTP API with an embedded job worker
  worker                                    run a job worker only
  accounts create|list|set-plan|rotate-key  manage accounts (see 'deckforge accounts --help')
  migrate                                   create or upgrade the database schema

Run 'deckforge <command> --help' for a command's options.
`;

export async function main(args: string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'generate':
      return (await import('./generate-command.js')).runGenerate(rest, io);
    case 'render':
      return (await import('./render-command.js')).runRender(rest, io);
    case 'inspect':
      return (await import('./inspect-command.js')).runInspect(rest, io);
    case 'mcp':
      return (await import('./mcp/mcp-command.js')).runMcp(rest, io);
    case 'serve':
      return (await import('./serve.js')).runServe(rest, io);
    case 'worker':
      return (await import('./worker.js')).runWorker(rest, io);
    case 'accounts':
      return (await import('./accounts.js')).runAccounts(rest, io);
    case 'migrate':
      return (await import('./migrate.js')).runMigrate(rest, io);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout(USAGE);
      return command === undefined ? 2 : 0;
    case '--version':
    case '-v':
      io.stdout(`${(await import('./version.js')).VERSION}\n`);
      return 0;
    default:
      // The engine's door is loaded on this path only: a known command starts without it.
      io.stderr(
        `deckforge: unknown command "${command}"${(await import('../engine/index.js')).didYouMean(command, COMMANDS)}\n\n${USAGE}`,
      );
      return 2;
  }
}

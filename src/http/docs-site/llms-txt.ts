/**
 * `GET /llms.txt` (the llms.txt convention: a Markdown index for language models): what Deckforge is, where its
 * MCP server is, and a link to each docs/ page as Markdown (`/docs/<page>.md`), in the guides' reading order.
 */
import type { Guide } from './docs-guides.js';

export function llmsText(guides: readonly Guide[]): string {
  const links = guides.map((guide) => `- [${guide.title}](/docs/${guide.name}.md)`).join('\n');
  return [
    '# Deckforge',
    '',
    '> A self-hosted service that fills PowerPoint templates: a .pptx template and a JSON description of the ' +
      "slides in, a .pptx that opens in PowerPoint without repair out. It copies the template's own slides, fills " +
      'shapes by name, fits text and renders slide previews.',
    '',
    "AI agents use its Model Context Protocol server: Streamable HTTP at `/mcp` with the API's bearer token, or " +
      '`deckforge mcp` on standard input and output (see the MCP page below). The REST API is described at ' +
      '`/openapi.json`.',
    '',
    '## Docs',
    '',
    links,
    '',
  ].join('\n');
}

/**
 * The measure of docs/mcp.md's promise: an agent that knows nothing of a template fills it in three tool calls
 * after the upload. For each deck of the development corpus (test/support/corpus/corpus.ts) with fillable shapes,
 * this loop (no model) uploads it, calls describe_template, builds jsonData from the description alone — each
 * text shape filled within its stated capacity, each table with a cell for every cell of its grid, each chart
 * with data of its form, series and categories — calls generate_deck and render_preview, and checks the deck: the
 * package invariants and the validator against its template, no overflow warning, a picture of every slide, and
 * every filled text in the render's text (the same renderer's PDF read with pdftotext). To stay cheap it fills at
 * most MAX_SLIDES slides of a deck (the first visible ones with fillable shapes) and renders only those.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { newPptxProblems } from '../support/checks/expect-valid-pptx.js';
import { corpusFiles, describeCorpus, itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { renderToPdfText } from '../support/readers/render.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';

const MAX_SLIDES = 2;
/** Long enough to be found in the render's text, short enough for a narrow box. */
const MIN_CHARS_PER_LINE = 8;

type Json = Record<string, unknown>;
interface Shape {
  name: string;
  kind: string;
  capacity?: { chars: number; lines: number; chars_per_line: number } | null;
  table?: { rows: number; columns: number };
  chart?: {
    series: string[];
    form: 'categories' | 'xy';
    categories: (string | number)[];
    category_count: number;
  };
}
interface Slide {
  index: number;
  hidden: boolean;
  shapes: Shape[];
}

let server: RunningServer;
let client: Client;
beforeAll(async () => {
  server = await startServer({
    plans: [
      {
        name: 'Free',
        allowedSlideCount: 10_000_000,
        requestsPerMinute: 100_000,
        storedTemplates: 1000,
        storedTemplateMegabytes: 10_000,
      },
    ],
  });
  const { token } = await server.signUp();
  client = new Client({ name: 'agent-loop', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
      requestInit: { headers: bearer(token) },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

async function tool(
  name: string,
  args: Json,
): Promise<{ structured: Json; images: number; error: Json | null }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  const error = result.isError ? (JSON.parse(content[0]!.text!) as { error: Json }).error : null;
  return {
    structured: (result.structuredContent ?? {}) as Json,
    images: content.filter((c) => c.type === 'image').length,
    error,
  };
}

/** What the agent writes into one shape, and the words it then looks for in the render. */
function fill(shape: Shape, tag: string): { entry: Json; words: string[] } | null {
  const capacity = shape.capacity;
  if (
    shape.kind === 'text' &&
    capacity &&
    capacity.lines >= 1 &&
    capacity.chars_per_line >= MIN_CHARS_PER_LINE
  ) {
    const lines = Math.min(capacity.lines, 2);
    const words = Array.from({ length: lines }, (_, i) => `${tag}l${i}`);
    return { entry: { name: shape.name, content: words.join('\n') }, words };
  }
  if (shape.kind === 'table' && shape.table && shape.table.rows > 0 && shape.table.columns > 0) {
    const rows = Array.from({ length: shape.table.rows }, (_, r) =>
      Array.from({ length: shape.table!.columns }, (_, c) => `${r}${c}`),
    );
    return { entry: { name: shape.name, content: rows }, words: [] };
  }
  if (shape.kind === 'chart' && shape.chart) {
    const names = shape.chart.series.length > 0 ? shape.chart.series : ['Series 1'];
    if (shape.chart.form === 'xy') {
      const series = names.map((name, s) => ({ name, x: [1, 2, 3], y: [s + 1, s + 2, s + 3] }));
      return { entry: { name: shape.name, content: { series } }, words: [] };
    }
    const count = Math.max(1, Math.min(shape.chart.category_count || 3, 12));
    const categories = Array.from({ length: count }, (_, i) => `C${i + 1}`);
    const series = names.map((name, s) => ({ name, values: categories.map((_, i) => (i + 1) * (s + 2)) }));
    return { entry: { name: shape.name, content: { categories, series } }, words: [] };
  }
  return null;
}

const outcomes: { file: string; outcome: string }[] = [];

describeCorpus('an agent fills every corpus deck in three tool calls', () => {
  for (const deck of corpusFiles()) {
    itCorpus(
      deck.file,
      async () => {
        const template = readCorpus(deck);
        const name = `corpus-${deck.sha256.slice(0, 12)}`;
        const uploaded = await tool('upload_template', {
          name,
          content_base64: Buffer.from(template).toString('base64'),
        });
        if (uploaded.error) {
          // A deck the service refuses as a template (ISO 29500 Strict, say) has nothing to fill.
          outcomes.push({ file: deck.file, outcome: `not a template: ${uploaded.error['message']}` });
          expect(deck.strict || uploaded.error['category'] === 'invalid_input').toBe(true);
          return;
        }
        // 1. describe_template
        const described = await tool('describe_template', { template: name });
        expect(described.error).toBeNull();
        const slides = described.structured['slides'] as Slide[];
        const chosen: { slide: Json; words: string[] }[] = [];
        for (const slide of slides) {
          if (slide.hidden || chosen.length >= MAX_SLIDES) continue;
          const fills = slide.shapes
            .map((shape, k) => fill(shape, `zq${chosen.length}s${k}`))
            .filter((f) => f !== null);
          if (fills.length === 0) continue;
          chosen.push({
            slide: { slide_index: slide.index, shapes: fills.map((f) => f.entry) },
            words: fills.flatMap((f) => f.words),
          });
        }
        if (chosen.length === 0) {
          outcomes.push({ file: deck.file, outcome: 'no fillable shape' });
          return;
        }
        // 2. generate_deck
        const generated = await tool('generate_deck', {
          jsonData: { presentation: { template: name, slides: chosen.map((c) => c.slide) } },
        });
        expect(generated.error, JSON.stringify(generated.error)).toBeNull();
        expect(generated.structured['status']).toBe('SUCCEEDED');
        const warnings = generated.structured['warnings'] as { message: string }[];
        expect(warnings.filter((w) => /overflow/.test(w.message))).toEqual([]);
        // 3. render_preview
        const preview = await tool('render_preview', {
          deck_id: generated.structured['deck_id'],
          slides: chosen.map((_, i) => i),
        });
        expect(preview.error, JSON.stringify(preview.error)).toBeNull();
        expect(preview.images).toBe(chosen.length);
        // The checks of a user: the deck sound against its template, every filled text drawn.
        const bytes = new Uint8Array(
          await (await fetch(generated.structured['download_url'] as string)).arrayBuffer(),
        );
        expect(await newPptxProblems(bytes, template)).toEqual([]);
        const pages = await renderToPdfText(bytes);
        const text = pages.join('\n').replace(/\s+/g, '');
        const missing = chosen.flatMap((c) => c.words).filter((word) => !text.includes(word));
        expect(missing, 'filled text not in the render').toEqual([]);
        outcomes.push({ file: deck.file, outcome: 'filled in 3 calls' });
      },
      300_000,
    );
  }

  itCorpus('summary', () => {
    const filled = outcomes.filter((o) => o.outcome === 'filled in 3 calls').length;
    console.log(
      `agent loop: ${outcomes.length} decks, ${filled} filled in three calls; others: ` +
        JSON.stringify(outcomes.filter((o) => o.outcome !== 'filled in 3 calls')),
    );
  });
});

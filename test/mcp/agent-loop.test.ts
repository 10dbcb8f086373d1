/**
 * The measure of docs/mcp.md's promise: an agent that knows nothing of a template fills it in three tool calls
 * after the upload. For each deck of the development corpus (test/support/corpus/corpus.ts), this loop (no model)
 * uploads it, calls describe_template, builds jsonData from the description alone, calls generate_deck and
 * render_preview, and checks what a user would: the package invariants and the validator against the template, no
 * overflow warning, a picture of every slide, every filled text in the render, every given picture in the deck.
 *
 * What it fills, from the description only: each text shape within its `capacity` (a probe word per line), each
 * table with a cell for every cell of its grid, each chart with data of its `form` and `series_fields`, each
 * picture with a picture; each shape by its `target` (a name another shape of the slide shares is reached by
 * `shapeId`). SmartArt is left out: the measure of docs/mcp.md is text, tables and charts, and which of a
 * graphic's nodes its drawing shows is not in the description (a matrix of the corpus lists 15 nodes and draws
 * 4). It fills at most MAX_SLIDES slides of a deck (the first visible ones with something to fill), so the
 * deck it makes, and renders, is those slides only.
 *
 * "In the render" means in the PDF the preview's pictures were drawn from: the server's own renderer is watched
 * (each render also keeps its PDF, read with pdftotext), so each deck is converted by LibreOffice once. One server
 * for the file; each deck is an agent of its own (an account and a client), DECKS_AT_ONCE of them at a time, so
 * one deck's validation overlaps the next one's generation and render.
 *
 * What is not filled, each a property the description states: a text box narrower than a probe word, a slide's
 * date, footer and slide-number placeholders (LibreOffice draws those from the deck's header and footer settings,
 * not from the slide's text: docs/mcp.md, "What is refused, and why"), shapes nothing reaches alone (name and id
 * both shared), and hidden slides (a preview draws none). A deck left with nothing to fill is counted, with why,
 * in the summary line.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { RenderRequest } from '../../src/service/ports/renderer.js';
import { newPptxProblems } from '../support/checks/expect-valid-pptx.js';
import { corpusFiles, describeCorpus, itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';

const run = promisify(execFile);
const MAX_SLIDES = 2;
/** A probe word is `zq` and three base-36 characters: long enough to be no template's text, short to fit. */
const PROBE_LENGTH = 5;
/** Header and footer placeholders (ECMA-376 Part 1, §19.7.10 ST_PlaceholderType). */
const HEADER_FOOTER = new Set(['dt', 'ftr', 'sldNum', 'hdr']);
const PICTURE = readFileSync(new URL('../../examples/logo.png', import.meta.url));
const PICTURE_URI = `data:image/png;base64,${PICTURE.toString('base64')}`;

type Json = Record<string, unknown>;
interface Shape {
  name: string;
  id: number;
  target: { name: string } | { shapeId: number } | null;
  kind: string;
  placeholder: string | null;
  capacity?: { chars: number; lines: number; chars_per_line: number } | null;
  table?: { rows: number; columns: number };
  chart?: {
    series: string[];
    form: 'categories' | 'xy' | 'bubble';
    series_fields: string[];
    category_count: number;
  };
}
interface Slide {
  index: number;
  hidden: boolean;
  shapes: Shape[];
}
interface Fill {
  shape: Shape;
  entry: Json;
  words: string[];
  picture: boolean;
}

let server: RunningServer;
/** The text of the PDF of each render of the server, by the account it drew for. */
const renderedTexts = new Map<string, string[]>();
const seconds: Record<string, number> = { upload: 0, describe: 0, generate: 0, preview: 0, checks: 0 };
/** Two decks at a time: one waits on LibreOffice or the validator while the other computes. */
const DECKS_AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function oneOf<T>(work: () => Promise<T>): Promise<T> {
  if (running >= DECKS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

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
  watchRenders(server);
});
afterAll(async () => {
  await server?.close();
});

/**
 * The server's renderer, watched: each render also writes its PDF (the one its PNGs are drawn from), whose text
 * is kept before the PDF is removed again for a caller that did not ask for it.
 */
function watchRenders(running: RunningServer): void {
  const renderer = running.runtime.renderer;
  const render = renderer.render.bind(renderer);
  renderer.render = async (request: RenderRequest) => {
    const result = await render({ ...request, pdf: true });
    const pdf = result.pdfFile!;
    const { stdout } = await run('pdftotext', ['-raw', '-enc', 'UTF-8', pdf, '-'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    renderedTexts.set(request.accountId, [...(renderedTexts.get(request.accountId) ?? []), stdout]);
    if (request.pdf) return result;
    await rm(pdf, { force: true });
    return { ...result, pdfFile: null };
  };
}

/** One agent: an account of its own and the SDK's client, connected to /mcp with the account's token. */
async function agent() {
  const { token } = await server.signUp();
  const account = await server.runtime.service.authenticate(token);
  const client = new Client({ name: 'agent-loop', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
      requestInit: { headers: bearer(token) },
    }),
  );
  let calls = 0;
  return {
    accountId: account.id,
    client,
    calls: () => calls,
    async tool(name: string, args: Json): Promise<{ structured: Json; images: number; error: Json | null }> {
      calls += 1;
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      const error = result.isError ? (JSON.parse(content[0]!.text!) as { error: Json }).error : null;
      return {
        structured: (result.structuredContent ?? {}) as Json,
        images: content.filter((c) => c.type === 'image').length,
        error,
      };
    },
  };
}

let probes = 0;
const probe = (): string => `zq${(probes++).toString(36).padStart(PROBE_LENGTH - 2, '0')}`;

/** What the agent writes into one shape (null: nothing), the words it then looks for, and whether a picture. */
function fill(shape: Shape): Fill | null {
  if (shape.target === null) return null;
  const entry = (content: unknown): Json => ({ ...shape.target, content });
  const capacity = shape.capacity;
  if (shape.kind === 'text') {
    if (!capacity || capacity.lines < 1 || capacity.chars_per_line < PROBE_LENGTH) return null;
    if (shape.placeholder !== null && HEADER_FOOTER.has(shape.placeholder)) return null;
    const words = Array.from({ length: Math.min(capacity.lines, 2) }, probe);
    return { shape, entry: entry(words.join('\n')), words, picture: false };
  }
  if (shape.kind === 'table' && shape.table && shape.table.rows > 0 && shape.table.columns > 0) {
    const rows = Array.from({ length: shape.table.rows }, (_, r) =>
      Array.from({ length: shape.table!.columns }, (_, c) => `${r}${c}`),
    );
    return { shape, entry: entry(rows), words: [], picture: false };
  }
  if (shape.kind === 'chart' && shape.chart) {
    const chart = shape.chart;
    const names = chart.series.length > 0 ? chart.series : ['Series 1'];
    const count = Math.max(1, Math.min(chart.category_count || 3, 12));
    const numbers = (s: number): number[] => Array.from({ length: count }, (_, i) => (i + 1) * (s + 2));
    // Each series gets the fields the description says its form takes, and nothing else.
    const field = (name: string, s: number): unknown =>
      name === 'x'
        ? numbers(0)
        : name === 'values' || name === 'y' || name === 'size'
          ? numbers(s)
          : undefined;
    const series = names.map((name, s) =>
      Object.fromEntries(chart.series_fields.map((f) => [f, f === 'name' ? name : field(f, s)])),
    );
    const content =
      chart.form === 'categories'
        ? { categories: Array.from({ length: count }, (_, i) => `C${i + 1}`), series }
        : { series };
    return { shape, entry: entry(content), words: [], picture: false };
  }
  if (shape.kind === 'picture') return { shape, entry: entry(PICTURE_URI), words: [], picture: true };
  return null;
}

/** Why a deck has nothing to fill, from its description. */
function nothingToFill(slides: Slide[]): string {
  if (slides.length === 0) return 'no slides';
  const visible = slides.filter((slide) => !slide.hidden);
  if (visible.length === 0) return 'only hidden slides';
  const kinds = [...new Set(visible.flatMap((slide) => slide.shapes.map((shape) => shape.kind)))];
  return `no shape to fill on a visible slide (shapes: ${kinds.join(', ') || 'none'})`;
}

const FILLED = 'filled in 3 calls';
const outcomes: { file: string; outcome: string }[] = [];

async function timed<T>(phase: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    seconds[phase]! += (performance.now() - started) / 1000;
  }
}

describeCorpus('an agent fills every corpus deck in three tool calls', () => {
  describe('each deck', { concurrent: true }, () => {
    for (const deck of corpusFiles()) {
      itCorpus(
        deck.file,
        () =>
          oneOf(async () => {
            const { accountId, client, calls, tool } = await agent();
            try {
              const template = readCorpus(deck);
              const name = `corpus-${deck.sha256.slice(0, 12)}`;
              const uploaded = await timed('upload', () =>
                tool('upload_template', { name, content_base64: Buffer.from(template).toString('base64') }),
              );
              if (uploaded.error) {
                // A package the service refuses as a template (ISO 29500 Strict) has nothing to fill.
                expect(deck.strict, JSON.stringify(uploaded.error)).toBe(true);
                expect(uploaded.error['category']).toBe('invalid_input');
                outcomes.push({ file: deck.file, outcome: 'refused: Strict OOXML' });
                return;
              }
              const afterUpload = calls();
              // 1. describe_template
              const described = await timed('describe', () => tool('describe_template', { template: name }));
              expect(described.error).toBeNull();
              const slides = described.structured['slides'] as Slide[];
              const chosen: { slide: Json; fills: Fill[] }[] = [];
              for (const slide of slides) {
                if (slide.hidden || chosen.length >= MAX_SLIDES) continue;
                const fills = slide.shapes.map(fill).filter((f) => f !== null);
                if (fills.length > 0) {
                  chosen.push({
                    slide: { slide_index: slide.index, shapes: fills.map((f) => f.entry) },
                    fills,
                  });
                }
              }
              if (chosen.length === 0) {
                outcomes.push({ file: deck.file, outcome: nothingToFill(slides) });
                return;
              }
              // 2. generate_deck
              const generated = await timed('generate', () =>
                tool('generate_deck', {
                  jsonData: { presentation: { template: name, slides: chosen.map((c) => c.slide) } },
                }),
              );
              expect(generated.error, JSON.stringify(generated.error)).toBeNull();
              expect(generated.structured['status']).toBe('SUCCEEDED');
              const warnings = generated.structured['warnings'] as { message: string }[];
              expect(warnings.filter((w) => /overflow/.test(w.message))).toEqual([]);
              // 3. render_preview
              const preview = await timed('preview', () =>
                tool('render_preview', {
                  deck_id: generated.structured['deck_id'],
                  slides: chosen.map((_, i) => i),
                  max_side: 512,
                }),
              );
              expect(preview.error, JSON.stringify(preview.error)).toBeNull();
              expect(calls() - afterUpload).toBe(3);
              expect(preview.images).toBe(chosen.length);
              expect(preview.structured['missing']).toEqual([]);
              expect(renderedTexts.get(accountId)).toHaveLength(1);

              await timed('checks', async () => {
                // What a user checks: the deck sound against its template, every filled text drawn, every picture in.
                const bytes = new Uint8Array(
                  await (await fetch(generated.structured['download_url'] as string)).arrayBuffer(),
                );
                expect(await newPptxProblems(bytes, template)).toEqual([]);
                const text = renderedTexts.get(accountId)![0]!.replace(/\s+/g, '');
                const missing = chosen.flatMap((c) =>
                  c.fills.filter((f) => f.words.some((word) => !text.includes(word))).map((f) => f.shape),
                );
                expect(missing, 'filled shapes whose text is not in the render').toEqual([]);
                if (chosen.some((c) => c.fills.some((f) => f.picture))) {
                  const parts = Object.values(unzipSync(bytes));
                  expect(parts.some((part) => Buffer.from(part).equals(PICTURE))).toBe(true);
                }
              });
              outcomes.push({ file: deck.file, outcome: FILLED });
            } finally {
              await client.close();
            }
          }),
        300_000,
      );
    }
  });

  itCorpus('summary', () => {
    const filled = outcomes.filter((o) => o.outcome === FILLED).length;
    const others = new Map<string, string[]>();
    for (const { file, outcome } of outcomes) {
      if (outcome !== FILLED) others.set(outcome, [...(others.get(outcome) ?? []), file]);
    }
    const phases = Object.entries(seconds).map(([phase, s]) => `${phase} ${s.toFixed(1)} s`);
    console.log(
      `agent loop: ${outcomes.length} decks, ${filled} filled in three calls after the upload; ` +
        `not filled: ${JSON.stringify(Object.fromEntries(others))}; time summed over the decks: ${phases.join(', ')}`,
    );
  });
});
